import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmHTTP

/// What a route's handler gets: the request, its path's parameters, the device that sent it,
/// and the server's configuration and shared state. The library is opened per request, as a
/// command opens it (SQLite keeps requests, commands and the daemon consistent with each other),
/// so handlers share no lock and a slow one (a rebuild) holds no other.
struct WebContext {
    let request: HTTPRequest
    let parameters: [String: String]
    /// The paired device or token that sent it; nil on an open route.
    let device: PairedDevice?
    let configuration: WebApplication.Configuration
    let gate: PairingGate
    let sessions: DeviceSessions
    /// The machine's examination, kept a few seconds for the status poll.
    let health: HealthCache
    /// The page's whole state, for its long poll.
    let live: LiveState
    let log: @Sendable (String) -> Void

    /// The path's parameter `name`, which the route's path declares.
    func parameter(_ name: String) -> String {
        guard let value = parameters[name] else { preconditionFailure("the route's path has no {\(name)}") }
        return value
    }

    /// Opens the library as a command does, for this request.
    func withLibrary<T>(_ body: (AlarmService) throws -> T) throws -> T {
        let (service, _) = try LibraryOpener.open(configuration.location, now: configuration.now, warn: { [log] warning in log(warning.line) })
        return try body(service)
    }

    /// The devices of an opened library.
    func devices(_ service: AlarmService) -> DeviceRegistry {
        DeviceRegistry(store: service.store, secrets: configuration.secrets, now: configuration.now)
    }
}
