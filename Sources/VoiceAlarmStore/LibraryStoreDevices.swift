import Foundation
import VoiceAlarmCore

/// The web page's paired devices and scripts' tokens, and the pairing codes waiting to be used.
/// Only digests of tokens and codes are stored. Not in the last-known-good copy, and changing
/// them does not rewrite it: a device seen is not a change to the alarms.
extension LibraryStore {
    /// Every paired browser and token, oldest first.
    package func devices() throws -> [PairedDevice] {
        try db.query("SELECT id, name, kind, created, last_seen, public_key FROM devices ORDER BY created").compactMap(Self.device)
    }

    /// The device whose token has this digest, or nil.
    package func device(withTokenDigest digest: String) throws -> PairedDevice? {
        try db.query("SELECT id, name, kind, created, last_seen, public_key FROM devices WHERE token_digest = ?", [.text(digest)]).first.flatMap(Self.device)
    }

    /// Adds a device with the digest of its token.
    package func insertDevice(_ device: PairedDevice, tokenDigest: String) throws {
        try db.execute(
            "INSERT INTO devices (id, name, kind, token_digest, created, public_key) VALUES (?, ?, ?, ?, ?, ?)",
            [
                .text(device.id.uuidString.lowercased()), .text(device.name), .text(device.kind.rawValue), .text(tokenDigest),
                .real(device.created.timeIntervalSince1970), device.publicKey.map { .text($0) } ?? .null,
            ])
    }

    /// Forgets a device: its token stops working at once. False when there was none.
    package func deleteDevice(_ id: UUID) throws -> Bool {
        let key = Database.Value.text(id.uuidString.lowercased())
        return try db.immediateTransaction {
            guard try !db.query("SELECT id FROM devices WHERE id = ?", [key]).isEmpty else { return false }
            try db.execute("DELETE FROM devices WHERE id = ?", [key])
            return true
        }
    }

    /// Notes when a device last made a request.
    package func setDeviceSeen(_ id: UUID, at date: Date) throws {
        try db.execute("UPDATE devices SET last_seen = ? WHERE id = ?", [.real(date.timeIntervalSince1970), .text(id.uuidString.lowercased())])
    }

    /// Keeps a new pairing code's digest until `expires`; expired codes are dropped on the way.
    package func insertPairingCode(digest: String, expires: Date, now: Date) throws {
        try db.immediateTransaction {
            try db.execute("DELETE FROM pairing_codes WHERE expires <= ?", [.real(now.timeIntervalSince1970)])
            try db.execute(
                "INSERT OR REPLACE INTO pairing_codes (code_digest, expires) VALUES (?, ?)",
                [.text(digest), .real(expires.timeIntervalSince1970)])
        }
    }

    /// What a code was worth: it pairs (and is used up) when it was waiting and still valid.
    package enum CodeRedemption: Equatable, Sendable { case redeemed, expired, unknown }

    /// Uses up a waiting code and adds `device` with it, in one transaction: both or neither.
    /// An expired code is removed and pairs nothing.
    package func pairDevice(_ device: PairedDevice, tokenDigest: String, codeDigest: String, now: Date) throws -> CodeRedemption {
        try db.immediateTransaction {
            let rows = try db.query("SELECT expires FROM pairing_codes WHERE code_digest = ?", [.text(codeDigest)])
            guard let expires = rows.first?["expires"]?.real else { return .unknown }
            try db.execute("DELETE FROM pairing_codes WHERE code_digest = ?", [.text(codeDigest)])
            guard expires > now.timeIntervalSince1970 else { return .expired }
            try insertDevice(device, tokenDigest: tokenDigest)
            return .redeemed
        }
    }

    private static func device(_ row: [String: Database.Value]) -> PairedDevice? {
        guard let id = row["id"]?.text.flatMap(UUID.init(uuidString:)), let name = row["name"]?.text,
            let kind = row["kind"]?.text.flatMap(PairedDevice.Kind.init(rawValue:)), let created = row["created"]?.real, created.isFinite
        else { return nil }
        let seen = row["last_seen"]?.real.flatMap { $0.isFinite ? Date(timeIntervalSince1970: $0) : nil }
        return PairedDevice(
            id: id, name: name, kind: kind, created: Date(timeIntervalSince1970: created), lastSeen: seen,
            publicKey: row["public_key"]?.text)
    }
}
