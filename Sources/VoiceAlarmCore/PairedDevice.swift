import Foundation

/// A browser paired with `voicealarm serve`, or a token a script uses: what may control the
/// alarms from outside a terminal. Its secret is never part of it (only a digest is stored).
package struct PairedDevice: Equatable, Sendable {
    package enum Kind: String, Sendable { case browser, token }

    package var id: UUID
    package var name: String
    package var kind: Kind
    package var created: Date
    /// When it last made a request (to the minute), nil when it never has.
    package var lastSeen: Date?
    /// A browser's public key (ECDSA P-256, base64 SPKI), whose private half signs its sessions;
    /// nil for a token, and for a browser paired before browsers made keys (it pairs again).
    package var publicKey: String?

    package init(id: UUID, name: String, kind: Kind, created: Date, lastSeen: Date? = nil, publicKey: String? = nil) {
        self.id = id
        self.name = name
        self.kind = kind
        self.created = created
        self.lastSeen = lastSeen
        self.publicKey = publicKey
    }

    /// The longest name a device may have.
    package static let longestName = 60

    /// Why `name` cannot name a device, or nil: 1 to 60 printable characters.
    package static func problem(withName name: String) -> String? {
        if name.trimmingCharacters(in: .whitespaces).isEmpty { return "a device's name cannot be empty" }
        if name.count > longestName { return "a device's name is at most \(longestName) characters (this one has \(name.count))" }
        if PrintableText.hasControlCharacters(name) { return "a device's name: \(PrintableText.refusal)" }
        return nil
    }
}
