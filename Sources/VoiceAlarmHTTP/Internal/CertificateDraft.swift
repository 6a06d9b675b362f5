internal import CGnuTLS
import Foundation

/// A certificate being made, with the fields every certificate made here shares: version 3, a
/// random positive serial, a validity from an hour before `now` (a client whose clock is a little
/// behind still accepts it), a subject `O=organization` with `CN=commonName` when there is one,
/// and its public key. The authority and the server's certificate add their own extensions, then
/// `sign` it.
struct CertificateDraft {
    let certificate: X509Certificate

    /// The corresponding C functions are `gnutls_x509_crt_set_version`, `…_set_serial`,
    /// `…_set_activation_time`, `…_set_expiration_time`, `…_set_dn_by_oid` and `…_set_key`.
    init(organization: String, commonName: String?, key: X509PrivateKey, now: Date, validDays: Int) throws(GnuTLSError) {
        precondition(validDays >= 1, "a certificate valid for \(validDays) days")
        certificate = try X509Certificate()
        let crt = certificate.handle
        try GnuTLSError.check("gnutls_x509_crt_set_version") { gnutls_x509_crt_set_version(crt, 3) }
        // RFC 5280: a positive serial of at most 20 bytes. 16 random bytes, the top bit cleared
        // (positive) and the next one set (no leading zero byte for DER to strip).
        var serial = try RandomBytes.make(16, .nonce)
        serial[0] = serial[0] & 0x7F | 0x40
        try GnuTLSError.check("gnutls_x509_crt_set_serial") { gnutls_x509_crt_set_serial(crt, serial, serial.count) }
        let start = time_t(now.timeIntervalSince1970.rounded(.down))
        try GnuTLSError.check("gnutls_x509_crt_set_activation_time") { gnutls_x509_crt_set_activation_time(crt, start - 3_600) }
        try GnuTLSError.check("gnutls_x509_crt_set_expiration_time") {
            gnutls_x509_crt_set_expiration_time(crt, start + time_t(validDays) * 86_400)
        }
        try GnuTLSError.check("gnutls_x509_crt_set_dn_by_oid") {
            gnutls_x509_crt_set_dn_by_oid(crt, GNUTLS_OID_X520_ORGANIZATION_NAME, 0, organization, UInt32(organization.utf8.count))
        }
        if let commonName {
            try GnuTLSError.check("gnutls_x509_crt_set_dn_by_oid") {
                gnutls_x509_crt_set_dn_by_oid(crt, GNUTLS_OID_X520_COMMON_NAME, 0, commonName, UInt32(commonName.utf8.count))
            }
        }
        try GnuTLSError.check("gnutls_x509_crt_set_key") { gnutls_x509_crt_set_key(crt, key.handle) }
    }

    /// Adds DNS names and IP addresses (4 or 16 bytes each) to the subjectAltName. The
    /// corresponding C function is `gnutls_x509_crt_set_subject_alt_name`.
    func addSubjectAltNames(dnsNames: [String], addresses: [[UInt8]]) throws(GnuTLSError) {
        let crt = certificate.handle
        for name in dnsNames {
            try GnuTLSError.check("gnutls_x509_crt_set_subject_alt_name") {
                gnutls_x509_crt_set_subject_alt_name(crt, GNUTLS_SAN_DNSNAME, name, UInt32(name.utf8.count), UInt32(GNUTLS_FSAN_APPEND))
            }
        }
        for address in addresses {
            try GnuTLSError.check("gnutls_x509_crt_set_subject_alt_name") {
                gnutls_x509_crt_set_subject_alt_name(crt, GNUTLS_SAN_IPADDRESS, address, UInt32(address.count), UInt32(GNUTLS_FSAN_APPEND))
            }
        }
    }

    /// Signs with SHA-256 by `issuer` (whose subject becomes the issuer, and whose key id the
    /// authority key id) with `key`, or by itself when `issuer` is nil. The corresponding C
    /// function is `gnutls_x509_crt_sign2`.
    func sign(issuer: X509Certificate?, key: X509PrivateKey) throws(GnuTLSError) {
        let crt = certificate.handle
        try GnuTLSError.check("gnutls_x509_crt_sign2") { gnutls_x509_crt_sign2(crt, issuer?.handle ?? crt, key.handle, GNUTLS_DIG_SHA256, 0) }
    }

    /// The 4 or 16 bytes of an IPv4 or IPv6 address in text; nil when it is neither. The
    /// corresponding C function is `inet_pton`.
    static func addressBytes(_ text: String) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: 16)
        if inet_pton(AF_INET, text, &bytes) == 1 { return Array(bytes.prefix(4)) }
        if inet_pton(AF_INET6, text, &bytes) == 1 { return bytes }
        return nil
    }
}
