import Foundation

/// A device key as a paired browser holds one (ECDSA P-256), made and used by `openssl`, an
/// independent implementation: its public half in the form WebCrypto exports (base64 SPKI DER),
/// and signatures of a session's challenge (DER, as `openssl dgst -sign` writes them).
public struct BrowserKey: Sendable {
    /// The private key's PEM file.
    public let path: String
    /// The public half, base64 SPKI: what a pairing sends as `key`.
    public let publicKey: String

    /// A new key in `folder`.
    public static func make(in folder: String) async throws -> BrowserKey {
        let path = "\(folder)/browser-key-\(UUID().uuidString).pem"
        try await ProcessRunner.mustRun("/usr/bin/openssl", ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", path])
        let spki = try await ProcessRunner.run("/bin/sh", ["-c", "openssl pkey -in \"$0\" -pubout -outform DER | base64 -w0", path])
        guard spki.status == 0, !spki.stdout.isEmpty else { throw TestSupportError("openssl pkey: \(spki.stderr)") }
        return BrowserKey(path: path, publicKey: spki.stdout)
    }

    /// The base64 ECDSA-SHA256 signature of `text`.
    public func sign(_ text: String) async throws -> String {
        let signed = try await ProcessRunner.run("/bin/sh", ["-c", "printf '%s' \"$1\" | openssl dgst -sha256 -sign \"$0\" | base64 -w0", path, text])
        guard signed.status == 0, !signed.stdout.isEmpty else { throw TestSupportError("openssl dgst: \(signed.stderr)") }
        return signed.stdout
    }

    /// What a page signs for `challenge` on `origin` (the server's `DeviceSessions.signedText`).
    public static func sessionText(challenge: String, origin: String) -> String { "voicealarm session\n\(origin)\n\(challenge)" }
}
