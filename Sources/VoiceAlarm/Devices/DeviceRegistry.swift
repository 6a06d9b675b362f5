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

    /// A registry over the library's database opened only to read: it answers while another
    /// process writes (a rebuild, a command) and from a library that cannot be written.
    package static func reading(_ dataDirectory: String, secrets: any SecretSource, now: @escaping @Sendable () -> Date) throws -> DeviceRegistry {
        DeviceRegistry(store: try LibraryStore(readingAlongside: dataDirectory), secrets: secrets, now: now)
    }

    /// A registry that writes, waiting at most `busyTimeout` ms for another process's hold.
    package static func writing(
        _ dataDirectory: String, busyTimeout: Int32, secrets: any SecretSource,
        now: @escaping @Sendable () -> Date
    ) throws -> DeviceRegistry {
        DeviceRegistry(store: try LibraryStore(dataDirectory: dataDirectory, busyTimeout: busyTimeout), secrets: secrets, now: now)
    }

    /// A new one-time code, good for `PairingCode.lifetime`; the codes already waiting stay good.
    package func newPairingCode() throws -> PairingCode {
        let code = try secrets.code()
        let expires = now().addingTimeInterval(PairingCode.lifetime)
        try store.insertPairingCode(digest: secrets.digest(Self.normalized(code)), expires: expires, now: now())
        return PairingCode(code: code, expires: expires)
    }

    /// Pairs a browser with a waiting code and returns the device and its token, which is shown
    /// once and never stored. The code is used up and the device made in one transaction: a
    /// failure leaves the code waiting. Callers go through `PairingGate`, which counts wrong codes.
    /// - Parameter publicKey: the browser's own public key (base64 SPKI, checked by the caller),
    ///   kept to verify the sessions it signs.
    package func pair(code: String, name: String, publicKey: String? = nil) throws -> (device: PairedDevice, token: String) {
        if let problem = PairedDevice.problem(withName: name) { throw DeviceError.invalidName(reason: problem) }
        let token = try secrets.token()
        let device = PairedDevice(
            id: UUID(), name: name.trimmingCharacters(in: .whitespaces), kind: .browser, created: now(),
            publicKey: publicKey)
        switch try store.pairDevice(device, tokenDigest: secrets.digest(token), codeDigest: secrets.digest(Self.normalized(code)), now: now()) {
        case .unknown: throw DeviceError.wrongCode
        case .expired: throw DeviceError.expiredCode
        case .redeemed: return (device, token)
        }
    }

    /// A token for a script (`Authorization: Bearer TOKEN`), listed and revoked like a browser.
    package func createToken(name: String) throws -> (device: PairedDevice, token: String) {
        if let problem = PairedDevice.problem(withName: name) { throw DeviceError.invalidName(reason: problem) }
        return try add(name: name, kind: .token)
    }

    /// The device a token belongs to, or nil. Only reads: a library opened read-only answers it
    /// while another process writes, so Stop from a phone never waits for a rebuild.
    package func authenticate(_ token: String) throws -> PairedDevice? {
        guard !token.isEmpty, token.count <= 200 else { return nil }
        return try store.device(withTokenDigest: secrets.digest(token))
    }

    /// The paired device with this id, or nil (revoked, or never paired here).
    package func device(_ id: UUID) throws -> PairedDevice? { try store.devices().first { $0.id == id } }

    /// Whether `device` was last seen long enough ago (a minute) to note it again.
    package func needsNoting(_ device: PairedDevice) -> Bool {
        let seen = now()
        return device.lastSeen.map { seen.timeIntervalSince($0) >= 60 || seen < $0 } ?? true
    }

    /// Notes that `device` made a request now (shown by `serve devices`).
    package func noteSeen(_ device: PairedDevice) throws { try store.setDeviceSeen(device.id, at: now()) }

    /// Every paired browser and token, oldest first.
    package func all() throws -> [PairedDevice] { try store.devices() }

    /// Ends a device (by id or a unique prefix of 8 or more characters): its token stops working at once.
    /// A reference that is no id (`IDPrefix`) is refused before the library is asked.
    @discardableResult
    package func revoke(_ reference: String) throws -> PairedDevice {
        let matches: [UUID]
        switch IDPrefix.parse(reference) {
        case .success(let prefix): matches = try store.ids(in: .devices, startingWith: prefix)
        case .failure(.tooShort): matches = []
        case .failure(.notAnID): throw DeviceError.notAnID(IDPrefix.shown(reference))
        }
        guard let id = matches.first else { throw DeviceError.unknownDevice(reference) }
        guard matches.count == 1 else { throw DeviceError.ambiguousDevice(reference, count: matches.count) }
        guard let device = try store.devices().first(where: { $0.id == id }), try store.deleteDevice(id) else {
            throw DeviceError.unknownDevice(reference)
        }
        return device
    }

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
