import Foundation
import VoiceAlarmCore
import VoiceAlarmStore

/// Who may control the alarms from outside a terminal: pairing codes made and redeemed, browsers
/// paired, tokens made for scripts, each checked on every request, listed and revoked. Only digests
/// of codes and tokens are stored, so a copy of the library gives nobody a way in.
///
/// ```swift
/// let devices = DeviceRegistry(store: service.store, secrets: secrets, now: service.now)
/// let code = try devices.newPairingCode()          // shown by `serve`
/// let (phone, token) = try devices.pair(code: code.code, name: "Phone")
/// try devices.authenticate(token)?.name            // "Phone"
/// ```
package struct DeviceRegistry {
    let store: LibraryStore
    let secrets: any SecretSource
    let now: @Sendable () -> Date

    package init(store: LibraryStore, secrets: any SecretSource, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.secrets = secrets
        self.now = now
    }

    /// A new one-time code, good for `PairingCode.lifetime`; the codes already waiting stay good.
    package func newPairingCode() throws -> PairingCode {
        let code = try secrets.code()
        let expires = now().addingTimeInterval(PairingCode.lifetime)
        try store.insertPairingCode(digest: secrets.digest(Self.normalized(code)), expires: expires, now: now())
        return PairingCode(code: code, expires: expires)
    }

    /// Pairs a browser with a waiting code (used up either way when it was waiting) and returns
    /// the device and its token, which is shown once and never stored.
    package func pair(code: String, name: String) throws -> (device: PairedDevice, token: String) {
        if let problem = PairedDevice.problem(withName: name) { throw DeviceError.invalidName(reason: problem) }
        switch try store.redeemPairingCode(digest: secrets.digest(Self.normalized(code)), now: now()) {
        case .unknown: throw DeviceError.wrongCode
        case .expired: throw DeviceError.expiredCode
        case .redeemed: return try add(name: name, kind: .browser)
        }
    }

    /// A token for a script (`Authorization: Bearer TOKEN`), listed and revoked like a browser.
    package func createToken(name: String) throws -> (device: PairedDevice, token: String) {
        if let problem = PairedDevice.problem(withName: name) { throw DeviceError.invalidName(reason: problem) }
        return try add(name: name, kind: .token)
    }

    /// The device a token belongs to, or nil; notes when it was seen (once a minute at most).
    package func authenticate(_ token: String) throws -> PairedDevice? {
        guard !token.isEmpty, token.count <= 200, var device = try store.device(withTokenDigest: secrets.digest(token)) else { return nil }
        let seen = now()
        if device.lastSeen.map({ seen.timeIntervalSince($0) >= 60 || seen < $0 }) ?? true {
            try? store.setDeviceSeen(device.id, at: seen)   // a library that cannot note it still lets the device in
            device.lastSeen = seen
        }
        return device
    }

    package func all() throws -> [PairedDevice] { try store.devices() }

    /// Ends a device (by id or a unique prefix of 8 or more characters): its token stops working at once.
    @discardableResult
    package func revoke(_ reference: String) throws -> PairedDevice {
        let text = reference.lowercased()
        let matches = text.count >= 8 ? try store.ids(in: .devices, startingWith: text) : []
        guard let id = matches.first else { throw DeviceError.unknownDevice(reference) }
        guard matches.count == 1 else { throw DeviceError.ambiguousDevice(reference, count: matches.count) }
        guard let device = try store.devices().first(where: { $0.id == id }), try store.deleteDevice(id) else {
            throw DeviceError.unknownDevice(reference)
        }
        return device
    }

    /// Voids every waiting code (after too many wrong guesses).
    package func voidPairingCodes() throws { try store.deletePairingCodes() }

    private func add(name: String, kind: PairedDevice.Kind) throws -> (device: PairedDevice, token: String) {
        let token = try secrets.token()
        let device = PairedDevice(id: UUID(), name: name.trimmingCharacters(in: .whitespaces), kind: kind, created: now())
        try store.insertDevice(device, tokenDigest: secrets.digest(token))
        return (device, token)
    }

    /// Codes are typed on phones: case, spaces and dashes do not matter.
    static func normalized(_ code: String) -> String {
        code.uppercased().filter { !$0.isWhitespace && $0 != "-" }
    }
}
