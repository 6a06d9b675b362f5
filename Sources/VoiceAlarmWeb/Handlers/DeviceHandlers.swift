import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments
import VoiceAlarmHTTP

/// Pairing, a paired browser's session, and the devices: who may use the page.
enum DeviceHandlers {
    /// `POST /api/pair` `{"code", "name", "key"}`: a waiting code makes this browser a device
    /// with its public key (`DevicePublicKey`). No cookie is set: the browser's key is its only
    /// credential, and its page keeps the device's id (the answer's `id`) beside the key.
    static func pair(_ context: WebContext) throws -> HTTPResponse {
        struct Body: Decodable { var code: String; var name: String?; var key: String? }
        let body = try WebJSON.decode(Body.self, from: context.request)
        guard let text = body.key else {
            throw WebFailure(status: 400, message: "key: a browser pairs with its own public key (this page's script makes one)", input: "key", code: 64)
        }
        let key: DevicePublicKey
        do { key = try DevicePublicKey(base64: text) } catch { throw WebFailure(status: 400, message: "key: \(error)", input: "key", code: 64) }
        return try context.withLibrary { service in
            let (device, _) = try context.gate.pair(
                code: body.code, name: body.name ?? "Browser", publicKey: key.base64,
                from: context.request.clientAddress, registry: context.devices(service))
            return WebJSON.response(201, DeviceJSON(device, service.timeZone))
        }
    }

    /// `POST /api/session`: `{"device"}` asks for a challenge, `{"device", "challenge", "signature"}`
    /// (base64 of the device key's ECDSA-SHA256 signature of `DeviceSessions.signedText`) opens a
    /// session. The page names its device by the id kept beside its key; only the device's key
    /// can sign, so naming a device gives nothing to whoever lacks it. Cookies are not read: a
    /// page on another port may have set one for our host, and it must not stand in the way.
    static func session(_ context: WebContext) throws -> HTTPResponse {
        struct Body: Decodable { var device: String?; var challenge: String?; var signature: String? }
        let request = context.request, configuration = context.configuration
        let body = request.body == .empty ? Body() : try WebJSON.decode(Body.self, from: request)
        let device = try sessionDevice(context, named: body.device)
        guard let challenge = body.challenge else {
            guard device.publicKey != nil else { throw DeviceError.pairedBeforeKeys }
            return WebJSON.response(200, ["challenge": try context.sessions.challenge(for: device)])
        }
        guard let signature = body.signature.flatMap({ Data(base64Encoded: $0) }) else {
            throw WebFailure(status: 400, message: "signature: the challenge's signature, base64", input: "signature", code: 64)
        }
        let origin = (configuration.https ? "https://" : "http://") + (request.header("host") ?? "")
        do {
            let (session, expires) = try context.sessions.open(for: device, challenge: challenge, signature: signature, origin: origin)
            return WebJSON.response(201, SessionJSON(session: session, expires: expires))
        } catch let refusal as DeviceSessions.Refusal {
            switch refusal {
            case .noKey: throw DeviceError.pairedBeforeKeys
            case .unknownChallenge: throw DeviceError.unknownChallenge
            case .badSignature: throw DeviceError.badSignature
            }
        }
    }

    /// The browser a session is asked for: the device the page names.
    private static func sessionDevice(_ context: WebContext, named: String?) throws -> PairedDevice {
        guard !WebCredential(context.request).isBearer else { throw DeviceError.notPaired }  // a script's token needs no session
        guard let named else { throw DeviceError.notPaired }
        let registry = try DeviceRegistry.reading(
            context.configuration.location.dataDirectory, secrets: context.configuration.secrets,
            now: context.configuration.now)
        let found = try UUID(uuidString: named).flatMap { try registry.device($0) }
        guard let device = found, device.kind == .browser else { throw DeviceError.pairingUnknown }
        return device
    }

    /// `GET /api/devices`: `serve devices`.
    static func list(_ context: WebContext) throws -> HTTPResponse {
        try context.withLibrary { service in WebJSON.response(200, try context.devices(service).all().map { DeviceJSON($0, service.timeZone) }) }
    }

    /// `DELETE /api/devices/{id}`: `serve revoke`.
    static func revoke(_ context: WebContext) throws -> HTTPResponse {
        try context.withLibrary { service in
            WebJSON.response(200, DeviceJSON(try context.devices(service).revoke(context.parameter("id")), service.timeZone))
        }
    }
}
