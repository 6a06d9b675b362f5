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

    /// The first certificate in `certificatePEM`, when `keyPEM` holds the private half of its
    /// public key: what loading a kept identity or authority checks first.
    /// - Throws: `TLSIdentity.Failure.certificateNotPEM`, `.keyNotPEM` or `.keyDoesNotMatch`.
    static func matching(certificatePEM: String, keyPEM: String) throws(TLSIdentity.Failure) -> X509Certificate {
        let certificate: X509Certificate, certificateKeyID: [UInt8], keyID: [UInt8]
        do throws(GnuTLSError) {
            certificate = try parse(pem: certificatePEM)
            certificateKeyID = try certificate.publicKeyID()
        } catch {
            throw .certificateNotPEM(error)
        }
        do throws(GnuTLSError) { keyID = try X509PrivateKey.parse(pem: keyPEM).publicKeyID() } catch { throw .keyNotPEM(error) }
        guard keyID == certificateKeyID else { throw .keyDoesNotMatch }
        return certificate
    }

    /// The certificate as PEM. The corresponding C function is `gnutls_x509_crt_export2`.
    func pem() throws(GnuTLSError) -> String {
        try Datum.exported("gnutls_x509_crt_export2") { gnutls_x509_crt_export2(handle, GNUTLS_X509_FMT_PEM, $0) }
    }

    /// The certificate's DER bytes: what a phone installs (`application/x-x509-ca-cert`). The
    /// corresponding C function is `gnutls_x509_crt_export2`.
    func der() throws(GnuTLSError) -> Data {
        var datum = gnutls_datum_t(data: nil, size: 0)
        try GnuTLSError.check("gnutls_x509_crt_export2") { gnutls_x509_crt_export2(handle, GNUTLS_X509_FMT_DER, &datum) }
        defer { cgnutls_free(datum.data) }
        guard let bytes = datum.data else { return Data() }
        return Data(bytes: bytes, count: Int(datum.size))
    }

    /// Whether `issuer` signed this certificate and may have (it is a CA whose name constraints
    /// permit this certificate's names), at the time of the call. The corresponding C function is
    /// `gnutls_x509_crt_verify`, whose status is 0 when nothing is wrong.
    func isIssued(by issuer: X509Certificate) -> Bool {
        var status: UInt32 = 0
        let list: [gnutls_x509_crt_t?] = [issuer.handle]
        let result = list.withUnsafeBufferPointer { buffer in
            gnutls_x509_crt_verify(handle, buffer.baseAddress, 1, 0, &status)
        }
        return result == 0 && status == 0
    }

    /// The SHA-1 key identifier of the certificate's public key, for the subject and authority key
    /// identifier extensions. The corresponding C function is `gnutls_x509_crt_get_key_id`.
    func keyIdentifier() throws(GnuTLSError) -> [UInt8] {
        var id = [UInt8](repeating: 0, count: 20)
        var size = id.count
        try GnuTLSError.check("gnutls_x509_crt_get_key_id") { gnutls_x509_crt_get_key_id(handle, 0, &id, &size) }
        return Array(id.prefix(size))
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

    /// The start of the certificate's validity (notBefore). The corresponding C function is
    /// `gnutls_x509_crt_get_activation_time`, which returns -1 when the field cannot be read.
    func activation() throws(GnuTLSError) -> Date {
        let time = gnutls_x509_crt_get_activation_time(handle)
        guard time != -1 else { throw GnuTLSError(operation: "gnutls_x509_crt_get_activation_time", code: GNUTLS_E_ASN1_DER_ERROR) }
        return Date(timeIntervalSince1970: TimeInterval(time))
    }

    /// The public key's algorithm and size in bits (an elliptic curve's size for ECDSA: 256 for
    /// P-256). The corresponding C function is `gnutls_x509_crt_get_pk_algorithm`.
    func publicKey() throws(GnuTLSError) -> TLSIdentity.PublicKey {
        var bits: UInt32 = 0
        let algorithm = try GnuTLSError.check("gnutls_x509_crt_get_pk_algorithm") { gnutls_x509_crt_get_pk_algorithm(handle, &bits) }
        let kind: TLSIdentity.PublicKey.Algorithm =
            switch UInt32(algorithm) {
            case GNUTLS_PK_RSA.rawValue: .rsa
            case GNUTLS_PK_RSA_PSS.rawValue: .rsaPSS
            case GNUTLS_PK_ECDSA.rawValue: .ecdsa
            case GNUTLS_PK_EDDSA_ED25519.rawValue: .ed25519
            case GNUTLS_PK_EDDSA_ED448.rawValue: .ed448
            case GNUTLS_PK_DSA.rawValue: .dsa
            default: .other(gnutls_pk_algorithm_get_name(gnutls_pk_algorithm_t(UInt32(algorithm))).map { String(cString: $0) } ?? "unknown")
            }
        return TLSIdentity.PublicKey(algorithm: kind, bits: Int(bits))
    }

    /// The DNS names and IP addresses (in text) of the subjectAltName, in the certificate's order:
    /// the names a browser accepts this certificate for. The corresponding C function is
    /// `gnutls_x509_crt_get_subject_alt_name`, called with a growing buffer until it has them all.
    func subjectAltNames() throws(GnuTLSError) -> (dnsNames: [String], ipAddresses: [String]) {
        var dnsNames: [String] = [], ipAddresses: [String] = []
        var sequence: UInt32 = 0
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            var size = buffer.count
            let type = gnutls_x509_crt_get_subject_alt_name(handle, sequence, &buffer, &size, nil)
            if type == GNUTLS_E_REQUESTED_DATA_NOT_AVAILABLE { return (dnsNames, ipAddresses) }
            if type == GNUTLS_E_SHORT_MEMORY_BUFFER {
                buffer = [UInt8](repeating: 0, count: size + 1)
                continue
            }
            try GnuTLSError.check("gnutls_x509_crt_get_subject_alt_name") { type }
            let bytes = Array(buffer.prefix(size))
            switch UInt32(type) {
            case GNUTLS_SAN_DNSNAME.rawValue: dnsNames.append(String(decoding: bytes, as: UTF8.self))
            case GNUTLS_SAN_IPADDRESS.rawValue: if let text = Self.addressText(bytes) { ipAddresses.append(text) }
            default: break
            }
            sequence += 1
        }
    }

    /// An address of 4 or 16 bytes in text (`192.168.1.20`, `fe80::1`); nil for another size.
    /// The corresponding C function is `inet_ntop`.
    private static func addressText(_ bytes: [UInt8]) -> String? {
        let family: Int32
        switch bytes.count {
        case 4: family = AF_INET
        case 16: family = AF_INET6
        default: return nil
        }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(family, bytes, &text, socklen_t(text.count)) != nil else { return nil }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
