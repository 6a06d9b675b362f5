internal import CGnuTLS

/// A `gnutls_x509_privkey_t`, deinitialized when the last reference goes away. Not `Sendable`:
/// it lives inside the one call that makes or loads an identity.
final class X509PrivateKey {
    let handle: gnutls_x509_privkey_t

    /// An empty key. The corresponding C function is `gnutls_x509_privkey_init`.
    init() throws(GnuTLSError) {
        var handle: gnutls_x509_privkey_t?
        try GnuTLSError.check("gnutls_x509_privkey_init") { gnutls_x509_privkey_init(&handle) }
        guard let handle else { throw GnuTLSError(operation: "gnutls_x509_privkey_init", code: GNUTLS_E_MEMORY_ERROR) }
        self.handle = handle
    }

    deinit { gnutls_x509_privkey_deinit(handle) }

    /// A new ECDSA key on NIST P-256 (secp256r1, OpenSSL's prime256v1): the curve every TLS client
    /// accepts, with keys made in milliseconds. The corresponding C function is
    /// `gnutls_x509_privkey_generate`.
    static func generateP256() throws(GnuTLSError) -> X509PrivateKey {
        let key = try X509PrivateKey()
        try GnuTLSError.check("gnutls_x509_privkey_generate") {
            gnutls_x509_privkey_generate(key.handle, GNUTLS_PK_ECDSA, cgnutls_curve_to_bits(GNUTLS_ECC_CURVE_SECP256R1), 0)
        }
        return key
    }

    /// The key in `pem`: PKCS #8 unencrypted (`BEGIN PRIVATE KEY`) or the algorithm's own form
    /// (`BEGIN EC PRIVATE KEY`, `BEGIN RSA PRIVATE KEY`). The corresponding C function is
    /// `gnutls_x509_privkey_import2`.
    static func parse(pem: String) throws(GnuTLSError) -> X509PrivateKey {
        let key = try X509PrivateKey()
        try GnuTLSError.check("gnutls_x509_privkey_import2") {
            Datum.with(pem) { gnutls_x509_privkey_import2(key.handle, $0, GNUTLS_X509_FMT_PEM, nil, 0) }
        }
        return key
    }

    /// The key as unencrypted PKCS #8 PEM (`BEGIN PRIVATE KEY`), which GnuTLS, OpenSSL and
    /// libmicrohttpd all read. The corresponding C function is `gnutls_x509_privkey_export2_pkcs8`.
    func pem() throws(GnuTLSError) -> String {
        try Datum.exported("gnutls_x509_privkey_export2_pkcs8") {
            gnutls_x509_privkey_export2_pkcs8(handle, GNUTLS_X509_FMT_PEM, nil, GNUTLS_PKCS_PLAIN.rawValue, $0)
        }
    }

    /// The SHA-256 of the public key's SubjectPublicKeyInfo, equal to the certificate's
    /// `X509Certificate.publicKeyID()` when the certificate holds this key's public half. The
    /// corresponding C function is `gnutls_x509_privkey_get_key_id`.
    func publicKeyID() throws(GnuTLSError) -> [UInt8] {
        var id = [UInt8](repeating: 0, count: 64)
        var size = id.count
        try GnuTLSError.check("gnutls_x509_privkey_get_key_id") {
            gnutls_x509_privkey_get_key_id(handle, GNUTLS_KEYID_USE_SHA256.rawValue, &id, &size)
        }
        return Array(id.prefix(size))
    }
}
