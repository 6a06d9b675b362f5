import Foundation
import VoiceAlarmHTTP

/// The library's certificate authority, offered to a phone to trust once (`CertificateAuthority`):
/// its certificate as Android and desktop browsers install it, as an iOS configuration profile,
/// and its fingerprint for the pairing page. Open to anyone: an authority's certificate is public,
/// and a phone fetches it before it can trust this server. What makes it safe is the comparison
/// the person makes: the fingerprint the phone shows against the one `serve` prints (and the
/// pairing link carries).
enum AuthorityHandlers {
    /// `GET /authority.crt`: the authority's certificate, DER.
    static func certificate(_ context: WebContext) throws -> HTTPResponse {
        let authority = try file(context)
        return HTTPResponse(
            status: 200,
            headers: [("Content-Type", "application/x-x509-ca-cert"), ("Content-Disposition", "attachment; filename=\"voicealarm-authority.crt\"")],
            body: .data(authority.der))
    }

    /// `GET /authority.mobileconfig`: a configuration profile holding the authority, which iOS
    /// installs from Settings (then Settings › General › About › Certificate Trust Settings turns
    /// on full trust). An unsigned profile: iOS says so, and shows the fingerprint to compare.
    static func profile(_ context: WebContext) throws -> HTTPResponse {
        let authority = try file(context)
        let certificate: [String: Any] = [
            "PayloadType": "com.apple.security.root", "PayloadVersion": 1,
            "PayloadIdentifier": "voicealarm.authority.\(authority.fingerprint.replacingOccurrences(of: ":", with: "").prefix(16))",
            "PayloadUUID": uuid(authority, salt: 1), "PayloadDisplayName": "VoiceAlarm on this bedside machine",
            "PayloadCertificateFileName": "voicealarm-authority.crt", "PayloadContent": authority.der,
        ]
        let profile: [String: Any] = [
            "PayloadType": "Configuration", "PayloadVersion": 1,
            "PayloadIdentifier": "voicealarm.profile.\(authority.fingerprint.replacingOccurrences(of: ":", with: "").prefix(16))",
            "PayloadUUID": uuid(authority, salt: 2), "PayloadDisplayName": "VoiceAlarm",
            "PayloadDescription": "Lets this phone check that the VoiceAlarm page comes from your bedside machine. SHA-256: \(authority.fingerprint)",
            "PayloadContent": [certificate],
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: profile, format: .xml, options: 0)
        return HTTPResponse(
            status: 200,
            headers: [("Content-Type", "application/x-apple-aspen-config"), ("Content-Disposition", "attachment; filename=\"voicealarm.mobileconfig\"")],
            body: .data(data))
    }

    /// `GET /api/authority`: `{"fingerprint"}`, for the pairing page to show.
    static func describe(_ context: WebContext) throws -> HTTPResponse {
        WebJSON.response(200, ["fingerprint": try file(context).fingerprint])
    }

    /// The authority, or 404 when the person's own certificate serves (there is none to offer).
    private static func file(_ context: WebContext) throws -> WebApplication.AuthorityFile {
        guard let authority = context.configuration.authority else {
            throw WebFailure(status: 404, message: "this server uses your own certificate: it has no authority to offer", input: "path")
        }
        return authority
    }

    /// A stable UUID for a profile's payload, from the authority's fingerprint: the same
    /// authority installs as the same profile (iOS replaces it rather than adding another).
    private static func uuid(_ authority: WebApplication.AuthorityFile, salt: UInt8) -> String {
        let hex = authority.fingerprint.replacingOccurrences(of: ":", with: "")
        var bytes = stride(from: 0, to: 32, by: 2).map { UInt8(hex.dropFirst($0).prefix(2), radix: 16) ?? 0 }
        bytes[0] ^= salt
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13],
                bytes[14], bytes[15]
            )
        ).uuidString
    }
}
