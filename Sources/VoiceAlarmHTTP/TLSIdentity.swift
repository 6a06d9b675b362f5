internal import CGnuTLS
import Foundation

/// The certificate and private key `voicealarm serve` answers HTTPS with, and the certificate's
/// fingerprint, which the pairing page shows so a person can check that the browser's warning
/// about a self-signed certificate is about this server and not another.
///
/// Made once with `selfSigned(…)` (a home server has no name a public authority would certify)
/// and kept as two PEM texts; loaded again with `load(…)`, which checks that the two belong
/// together. GnuTLS does the key generation, encoding and signing.
///
/// ```swift
/// let identity = try TLSIdentity.selfSigned(commonName: "bedside.local", dnsNames: ["bedside.local", "localhost"],
///                                           ipAddresses: ["192.168.1.20"], now: Date())
/// print(identity.fingerprint)   // 3F:A0:…:9C, as `openssl x509 -noout -fingerprint -sha256` prints it
/// let again = try TLSIdentity.load(certificatePEM: identity.certificatePEM, keyPEM: identity.keyPEM)
/// ```
package struct TLSIdentity: Sendable, Equatable {
    /// The X.509 certificate, PEM (`BEGIN CERTIFICATE`).
    package let certificatePEM: String
    /// The private key, PEM: PKCS #8 unencrypted (`BEGIN PRIVATE KEY`) for a key made here; as
    /// given for a loaded one. Whoever stores it keeps it private (mode 0600).
    package let keyPEM: String
    /// The SHA-256 of the certificate's DER bytes, uppercase hexadecimal pairs joined by colons
    /// (`AB:12:…`, 95 characters): what `openssl x509 -noout -fingerprint -sha256` prints after
    /// the `=`, and what browsers show as the certificate's SHA-256 fingerprint.
    package let fingerprint: String
    /// When the certificate stops being valid (its notAfter), to the second.
    package let notAfter: Date

    /// Makes a new ECDSA P-256 key and a self-signed X.509 v3 certificate for it, for a TLS server:
    /// a random serial number, valid from an hour before `now` (a client whose clock is a little
    /// behind still accepts it) until `validDays` after `now`, subject `CN=commonName`, a
    /// subjectAltName holding every DNS name and IP address (browsers match the address bar against
    /// it, not against the CN), not a CA, key usage digital signature, extended key usage TLS server
    /// authentication, signed with SHA-256.
    ///
    /// The corresponding C functions are `gnutls_x509_privkey_generate`, `gnutls_x509_crt_set_…`
    /// and `gnutls_x509_crt_sign2`.
    /// - Parameters:
    ///   - dnsNames: host names such as `bedside.local` and `localhost`.
    ///   - ipAddresses: IPv4 or IPv6 addresses in text (`192.168.1.20`, `::1`).
    ///   - validDays: at least 1. 825 by default: the longest validity Apple's platforms accept for
    ///     a server certificate whatever its issuer.
    /// - Throws: `Failure.notAnIPAddress` for an address that does not parse; `Failure.library`
    ///   when GnuTLS refuses a field (an empty or non-ASCII DNS name, say) or cannot make the key.
    package static func selfSigned(commonName: String, dnsNames: [String], ipAddresses: [String], now: Date,
                                   validDays: Int = 825) throws(Failure) -> TLSIdentity {
        precondition(validDays >= 1, "a certificate valid for \(validDays) days")
        let addresses = try ipAddresses.map { (text) throws(Failure) -> [UInt8] in
            guard let bytes = addressBytes(text) else { throw Failure.notAnIPAddress(text) }
            return bytes
        }
        do throws(GnuTLSError) {
            let key = try X509PrivateKey.generateP256()
            let certificate = try X509Certificate()
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
                gnutls_x509_crt_set_dn_by_oid(crt, GNUTLS_OID_X520_COMMON_NAME, 0, commonName, UInt32(commonName.utf8.count))
            }
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

            try GnuTLSError.check("gnutls_x509_crt_set_key") { gnutls_x509_crt_set_key(crt, key.handle) }
            try GnuTLSError.check("gnutls_x509_crt_set_basic_constraints") { gnutls_x509_crt_set_basic_constraints(crt, 0, -1) }
            try GnuTLSError.check("gnutls_x509_crt_set_key_usage") { gnutls_x509_crt_set_key_usage(crt, UInt32(GNUTLS_KEY_DIGITAL_SIGNATURE)) }
            try GnuTLSError.check("gnutls_x509_crt_set_key_purpose_oid") { gnutls_x509_crt_set_key_purpose_oid(crt, GNUTLS_KP_TLS_WWW_SERVER, 0) }
            try GnuTLSError.check("gnutls_x509_crt_sign2") { gnutls_x509_crt_sign2(crt, crt, key.handle, GNUTLS_DIG_SHA256, 0) }

            return TLSIdentity(certificatePEM: try certificate.pem(), keyPEM: try key.pem(),
                               fingerprint: Hex.text(try certificate.sha256Fingerprint(), uppercase: true, separator: ":"),
                               notAfter: try certificate.expiration())
        } catch {
            throw .library(error)
        }
    }

    /// An identity kept from before: parses both texts, checks that the key is the certificate's,
    /// and computes the fingerprint. Any key type GnuTLS reads is accepted (ECDSA, RSA, Ed25519),
    /// so a certificate made elsewhere can be used too.
    ///
    /// The corresponding C functions are `gnutls_x509_crt_import`, `gnutls_x509_privkey_import2`,
    /// `gnutls_x509_crt_get_key_id` and `gnutls_x509_privkey_get_key_id`.
    /// - Throws: `Failure.certificateNotPEM`, `Failure.keyNotPEM` or `Failure.keyDoesNotMatch`.
    package static func load(certificatePEM: String, keyPEM: String) throws(Failure) -> TLSIdentity {
        let certificate: X509Certificate, certificateKeyID: [UInt8], fingerprint: [UInt8], notAfter: Date
        do throws(GnuTLSError) {
            certificate = try X509Certificate.parse(pem: certificatePEM)
            certificateKeyID = try certificate.publicKeyID()
            fingerprint = try certificate.sha256Fingerprint()
            notAfter = try certificate.expiration()
        } catch {
            throw .certificateNotPEM(error)
        }
        let keyID: [UInt8]
        do throws(GnuTLSError) { keyID = try X509PrivateKey.parse(pem: keyPEM).publicKeyID() } catch { throw .keyNotPEM(error) }
        guard keyID == certificateKeyID else { throw .keyDoesNotMatch }
        return TLSIdentity(certificatePEM: certificatePEM, keyPEM: keyPEM,
                           fingerprint: Hex.text(fingerprint, uppercase: true, separator: ":"), notAfter: notAfter)
    }

    /// The 4 or 16 bytes of an IPv4 or IPv6 address in text; nil when it is neither. The
    /// corresponding C function is `inet_pton`.
    private static func addressBytes(_ text: String) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: 16)
        if inet_pton(AF_INET, text, &bytes) == 1 { return Array(bytes.prefix(4)) }
        if inet_pton(AF_INET6, text, &bytes) == 1 { return bytes }
        return nil
    }
}

extension TLSIdentity {
    /// Why an identity could not be made or loaded, in one lowercase line.
    package enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The certificate text is not a PEM X.509 certificate GnuTLS can read.
        case certificateNotPEM(GnuTLSError)
        /// The key text is not an unencrypted PEM private key GnuTLS can read.
        case keyNotPEM(GnuTLSError)
        /// The key parses but is not the one whose public half the certificate holds.
        case keyDoesNotMatch
        /// An address for the subjectAltName that is neither IPv4 nor IPv6.
        case notAnIPAddress(String)
        /// GnuTLS could not make the key or refused a field of the certificate.
        case library(GnuTLSError)

        package var description: String {
            switch self {
            case .certificateNotPEM(let error): "the certificate is not PEM X.509: \(error.reason)"
            case .keyNotPEM(let error): "the private key is not an unencrypted PEM key: \(error.reason)"
            case .keyDoesNotMatch: "the private key does not belong to the certificate"
            case .notAnIPAddress(let text): "not an IP address: \(text)"
            case .library(let error): "cannot make the certificate: \(error)"
            }
        }
    }
}
