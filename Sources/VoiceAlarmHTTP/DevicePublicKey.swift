internal import CGnuTLS
import Foundation

/// The public half of the key a paired browser made for itself: ECDSA on P-256, as WebCrypto
/// exports it (`spki`, base64). The private half never leaves the browser: it is made
/// non-extractable and kept in the page's own storage (IndexedDB), which only this server's
/// origin (scheme, host and port) can reach. A request signed with it therefore comes from our
/// page in the browser that paired — not from another port's page, nor from
/// a program that copied it.
///
/// ```swift
/// let key = try DevicePublicKey(base64: pairing.key)        // refused unless P-256
/// key.verifies(signature: signed, of: Data(challenge.utf8))  // WebCrypto's r‖s or DER
/// ```
///
/// GnuTLS imports the key and checks the signature.
package struct DevicePublicKey: Sendable, Equatable {
    /// The SubjectPublicKeyInfo as WebCrypto and `openssl pkey -pubout -outform DER` write it,
    /// base64 (standard alphabet, padded): what the library stores for the device.
    package let base64: String
    private let der: Data

    /// Why a key was refused.
    package enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case notBase64
        case notAKey(String)
        case wrongKind(String)

        package var description: String {
            switch self {
            case .notBase64: "the device key is not base64"
            case .notAKey(let reason): "the device key is not a public key (\(reason))"
            case .wrongKind(let kind): "the device key is \(kind); a browser's device key is ECDSA P-256"
            }
        }
    }

    /// The key in `base64` (SPKI DER, at most 1 KB), refused unless it is ECDSA on P-256. The
    /// corresponding C functions are `gnutls_pubkey_import` and `gnutls_pubkey_get_pk_algorithm`.
    package init(base64 text: String) throws(Failure) {
        guard text.utf8.count <= 1400, let der = Data(base64Encoded: text), !der.isEmpty else { throw .notBase64 }
        let key: PublicKeyHandle
        do { key = try PublicKeyHandle(der: der) } catch { throw .notAKey(error.reason) }
        var bits: UInt32 = 0
        let algorithm = gnutls_pubkey_get_pk_algorithm(key.handle, &bits)
        // P-256 is the only 256-bit curve GnuTLS's ECDSA has.
        guard algorithm == Int32(GNUTLS_PK_ECDSA.rawValue), bits == 256 else {
            throw .wrongKind(algorithm == Int32(GNUTLS_PK_ECDSA.rawValue) ? "ECDSA of \(bits) bits" : "not ECDSA")
        }
        self.der = der
        base64 = der.base64EncodedString()
    }

    /// Whether `signature` is this key's ECDSA-SHA256 signature of `message`. The signature is
    /// WebCrypto's (64 bytes, r then s) or DER (what `openssl dgst -sign` writes). The
    /// corresponding C functions are `gnutls_encode_rs_value` and `gnutls_pubkey_verify_data2`.
    package func verifies(signature: Data, of message: Data) -> Bool {
        guard !signature.isEmpty, signature.count <= 256, let key = try? PublicKeyHandle(der: der) else { return false }
        let encoded: Data
        if signature.count == 64 {
            guard let der = Self.derSignature(r: signature.prefix(32), s: signature.suffix(32)) else { return false }
            encoded = der
        } else {
            encoded = signature
        }
        return Datum.with(bytes: message) { data in
            Datum.with(bytes: encoded) { sig in
                gnutls_pubkey_verify_data2(key.handle, GNUTLS_SIGN_ECDSA_SHA256, 0, data, sig) >= 0
            }
        }
    }

    /// r and s as the DER `SEQUENCE { INTEGER r, INTEGER s }` GnuTLS verifies.
    private static func derSignature(r: Data, s: Data) -> Data? {
        Datum.with(bytes: r) { r in
            Datum.with(bytes: s) { s in
                var out = gnutls_datum_t(data: nil, size: 0)
                guard gnutls_encode_rs_value(&out, r, s) >= 0, let bytes = out.data else { return nil }
                defer { cgnutls_free(bytes) }
                return Data(bytes: bytes, count: Int(out.size))
            }
        }
    }

    package static func == (left: DevicePublicKey, right: DevicePublicKey) -> Bool { left.der == right.der }
}

/// A `gnutls_pubkey_t`, deinitialized with its owner.
private final class PublicKeyHandle {
    let handle: gnutls_pubkey_t

    init(der: Data) throws(GnuTLSError) {
        var made: gnutls_pubkey_t?
        try GnuTLSError.check("gnutls_pubkey_init") { gnutls_pubkey_init(&made) }
        guard let made else { throw GnuTLSError(operation: "gnutls_pubkey_init", code: GNUTLS_E_MEMORY_ERROR) }
        handle = made
        try GnuTLSError.check("gnutls_pubkey_import") {
            Datum.with(bytes: der) { gnutls_pubkey_import(made, $0, GNUTLS_X509_FMT_DER) }
        }
    }

    deinit { gnutls_pubkey_deinit(handle) }
}
