import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmHTTP

/// Finds the device behind a request on every route that is not open: a script's bearer token,
/// or a paired browser's session, which its page signed for with the browser's non-extractable
/// key (`DeviceSessions`). Cookies are not read: any port's page may set one for our host. The
/// API answers 401 without a device.
struct DeviceMiddleware: WebMiddleware {
    let configuration: WebApplication.Configuration
    let sessions: DeviceSessions

    func admit(_ exchange: inout WebExchange) -> HTTPResponse? {
        guard let endpoint = exchange.endpoint, endpoint.access != .open else { return nil }
        let credential = WebCredential(exchange.request)
        switch device(for: credential) {
        case .success(let device):
            exchange.device = device
            return nil
        case .failure(let failure):
            return failure.response
        }
    }

    private func device(for credential: WebCredential) -> Result<PairedDevice, WebFailure> {
        do {
            // Read only: answered while a command or a rebuild writes, and from a library that
            // cannot be written (Stop from the phone never waits, never fails for it).
            let registry = try DeviceRegistry.reading(configuration.location.dataDirectory, secrets: configuration.secrets, now: configuration.now)
            let found: PairedDevice
            if let token = credential.token {
                // A browser's pairing is no script's token.
                guard let device = try registry.authenticate(token), device.kind == .token else {
                    return .failure(WebFailure(DeviceError.pairingUnknown))
                }
                found = device
            } else if let session = credential.session {
                guard let id = sessions.device(for: session) else { return .failure(WebFailure(DeviceError.noSession)) }
                guard let device = try registry.device(id), device.kind == .browser else { return .failure(WebFailure(DeviceError.pairingUnknown)) }
                found = device
            } else {
                return .failure(WebFailure(DeviceError.notPaired))
            }
            note(found, registry)
            guard found.kind == .browser else { return .success(found) }
            guard found.publicKey != nil else { return .failure(WebFailure(DeviceError.pairedBeforeKeys)) }
            guard let session = credential.session, sessions.device(for: session) == found.id else {
                return .failure(WebFailure(DeviceError.noSession))
            }
            return .success(found)
        } catch {
            return .failure(WebFailure(error))
        }
    }

    /// Notes when the device was seen: worth a quarter of a second's wait at most, never a refusal.
    private func note(_ device: PairedDevice, _ registry: DeviceRegistry) {
        guard registry.needsNoting(device) else { return }
        try? DeviceRegistry.writing(
            configuration.location.dataDirectory, busyTimeout: 250, secrets: configuration.secrets,
            now: configuration.now
        ).noteSeen(device)
    }
}
