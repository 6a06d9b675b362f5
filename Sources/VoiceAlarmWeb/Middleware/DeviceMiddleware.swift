import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmHTTP

/// Finds the device behind a request on every route that is not open: a script's bearer token,
/// or a paired browser's cookie with the session its page signed (`DeviceSessions`) — the cookie
/// alone opens only the page itself and the session handshake, because browsers send it to every
/// port of the host. Unpaired, a person's browser asking for the page is sent to `/pair` (303);
/// the API answers 401.
struct DeviceMiddleware: WebMiddleware {
    let configuration: WebApplication.Configuration
    let sessions: DeviceSessions

    func admit(_ exchange: inout WebExchange) -> HTTPResponse? {
        guard let endpoint = exchange.endpoint, endpoint.access != .open else { return nil }
        let request = exchange.request
        let credential = WebCredential(request, cookieName: WebApplication.cookieName, sessionHeader: WebApplication.sessionHeader)
        switch device(for: credential, access: endpoint.access) {
        case .success(let device):
            exchange.device = device
            return nil
        case .failure(let failure):
            if !endpoint.isAPI && (request.method == "GET" || request.method == "HEAD") {
                return HTTPResponse(status: 303, headers: [("Location", "/pair")])
            }
            return failure.response
        }
    }

    private func device(for credential: WebCredential, access: WebEndpoint.Access) -> Result<PairedDevice, WebFailure> {
        guard let token = credential.token else { return .failure(WebFailure(DeviceError.notPaired)) }
        let found: PairedDevice
        do {
            // Read only: answered while a command or a rebuild writes, and from a library that
            // cannot be written (Stop from the phone never waits, never fails for it).
            let registry = try DeviceRegistry.reading(configuration.location.dataDirectory, secrets: configuration.secrets, now: configuration.now)
            // A browser's cookie is no bearer token (another port's page saw it), nor a token a cookie.
            guard let device = try registry.authenticate(token), device.kind == (credential.isBearer ? .token : .browser) else {
                return .failure(WebFailure(DeviceError.pairingUnknown))
            }
            found = device
            if registry.needsNoting(device) {
                // When it was seen is worth a quarter of a second's wait at most, never a refusal.
                try? DeviceRegistry.writing(configuration.location.dataDirectory, busyTimeout: 250, secrets: configuration.secrets,
                                            now: configuration.now).noteSeen(device)
            }
        } catch {
            return .failure(WebFailure(error))
        }
        guard found.kind == .browser, access == .paired else { return .success(found) }
        guard found.publicKey != nil else { return .failure(WebFailure(DeviceError.pairedBeforeKeys)) }
        guard let session = credential.session, sessions.device(for: session) == found.id else {
            return .failure(WebFailure(DeviceError.noSession))
        }
        return .success(found)
    }
}
