import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `GET /api/status`: what is ringing now (each ring's alarm, and its snooze when it has one),
/// the snoozes waiting, and what `doctor` says — without opening the sound device: the page asks
/// every few seconds, and a device held by the page at the minute an alarm starts could keep
/// the alarm from ringing on it (`deviceChecked` is false).
struct WebStatus: Encodable {
    struct Ring: Encodable { var alarm: String; var snooze: Nullable<Int> }
    struct Fallback: Encodable { var id: String; var reason: String }
    struct Snoozed: Encodable { var alarm: String; var ringAt: String }
    var ringing: [Ring]
    var snoozed: [Snoozed]
    var defaultTone: [Fallback]
    var deviceChecked = false
    var doctor: DoctorJSON

    init(service: AlarmService, location: LibraryLocation) throws {
        let statuses = try service.alarms.statuses()
        let minutes = Dictionary(statuses.map { ($0.alarm.id, $0.alarm.snoozeMinutes) }, uniquingKeysWith: { first, _ in first })
        ringing = RingingRegistry(dataDirectory: service.dataDirectory).ringing().map { id in
            // A snoozed ring is registered under its alarm's id with every bit flipped.
            let alarm = Snooze.isScheduleID(id) ? Snooze.scheduleID(for: id) : id
            return Ring(alarm: alarm.uuidString.lowercased(), snooze: Nullable(minutes[alarm] ?? nil))
        }
        let report = try Doctor(service: service, openDevice: { _ in }).examine(location: location)
        doctor = DoctorJSON(report, on: .page)
        defaultTone = report.onDefaultTone.map { Fallback(id: $0.id, reason: $0.reason) }
        snoozed = statuses.compactMap { status in
            status.snoozedUntil.map { Snoozed(alarm: status.alarm.idString, ringAt: LocalTimeText.iso($0, service.timeZone)) }
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(ringing, forKey: .ringing); try c.encode(snoozed, forKey: .snoozed); try c.encode(defaultTone, forKey: .defaultTone)
        try c.encode(deviceChecked, forKey: .deviceChecked); try c.encode(doctor, forKey: .doctor)
    }
    enum Keys: String, CodingKey { case ringing, snoozed, defaultTone, deviceChecked, doctor }
}
