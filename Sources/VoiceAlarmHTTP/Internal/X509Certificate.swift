internal import CGnuTLS
import Foundation

/// A `gnutls_x509_crt_t`, deinitialized when the last reference goes away. Not `Sendable`: it
/// lives inside the one call that makes or loads an identity.
final class X509Certificate {
    let handle: gnutls_x509_crt_t

    /// An empty certificate. The corresponding C function is `gnutls_x509_crt_init`.
    init() throws(GnuTLSError) {
        var handle: gnutls_x509_crt_t?
        try GnuTLSError.check("gnutls_x509_crt_init") { gnutls_x509_crt_init(&handle) }
        guard let handle else { throw GnuTLSError(operation: "gnutls_x509_crt_init", code: GNUTLS_E_MEMORY_ERROR) }
        self.handle = handle
    }

    deinit { gnutls_x509_crt_deinit(handle) }

    /// The first certificate in `pem` (`BEGIN CERTIFICATE`). The corresponding C function is
    /// `gnutls_x509_crt_import`.
    static func parse(pem: String) throws(GnuTLSError) -> X509Certificate {
        let certificate = try X509Certificate()
        try GnuTLSError.check("gnutls_x509_crt_import") {
            Datum.with(pem) { gnutls_x509_crt_import(certificate.handle, $0, GNUTLS_X509_FMT_PEM) }
        }
        return certificate
    }

    /// The certificate as PEM. The corresponding C function is `gnutls_x509_crt_export2`.
    func pem() throws(GnuTLSError) -> String {
        try Datum.exported("gnutls_x509_crt_export2") { gnutls_x509_crt_export2(handle, GNUTLS_X509_FMT_PEM, $0) }
    }

    /// The SHA-256 of the certificate's DER bytes: what a browser shows and `openssl x509
    /// -fingerprint -sha256` prints. The corresponding C function is `gnutls_x509_crt_get_fingerprint`.
    func sha256Fingerprint() throws(GnuTLSError) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var size = digest.count
        try GnuTLSError.check("gnutls_x509_crt_get_fingerprint") {
            gnutls_x509_crt_get_fingerprint(handle, GNUTLS_DIG_SHA256, &digest, &size)
        }
        return Array(digest.prefix(size))
    }

    /// The SHA-256 of the certificate's SubjectPublicKeyInfo (see `X509PrivateKey.publicKeyID()`).
    /// The corresponding C function is `gnutls_x509_crt_get_key_id`.
    func publicKeyID() throws(GnuTLSError) -> [UInt8] {
        var id = [UInt8](repeating: 0, count: 64)
        var size = id.count
        try GnuTLSError.check("gnutls_x509_crt_get_key_id") {
            gnutls_x509_crt_get_key_id(handle, GNUTLS_KEYID_USE_SHA256.rawValue, &id, &size)
        }
        return Array(id.prefix(size))
    }

    /// The end of the certificate's validity (notAfter). The corresponding C function is
    /// `gnutls_x509_crt_get_expiration_time`, which returns -1 when the field cannot be read.
    func expiration() throws(GnuTLSError) -> Date {
        let time = gnutls_x509_crt_get_expiration_time(handle)
        guard time != -1 else { throw GnuTLSError(operation: "gnutls_x509_crt_get_expiration_time", code: GNUTLS_E_ASN1_DER_ERROR) }
        return Date(timeIntervalSince1970: TimeInterval(time))
    }
}
