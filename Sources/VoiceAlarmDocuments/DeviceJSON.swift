import Foundation
import VoiceAlarmCore

/// A paired browser or a script's token: `{"id", "name", "kind", "created", "lastSeen"}` (never its token).
package struct DeviceJSON: Encodable {
    package var id: String, name: String, kind: String, created: String, lastSeen: String?

    package init(_ device: PairedDevice, _ zone: TimeZone) {
        id = device.id.uuidString.lowercased()
        name = device.name
        kind = device.kind.rawValue
        created = LocalTimeText.iso(device.created, zone)
        lastSeen = device.lastSeen.map { LocalTimeText.iso($0, zone) }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(id, forKey: .id); try c.encode(name, forKey: .name); try c.encode(kind, forKey: .kind)
        try c.encode(created, forKey: .created); try c.encode(lastSeen, forKey: .lastSeen)
    }
    package enum Keys: String, CodingKey { case id, name, kind, created, lastSeen }
}
