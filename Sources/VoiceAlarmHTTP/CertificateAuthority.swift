internal import CGnuTLS
import Foundation

/// This library's own certificate authority: the one certificate a person's browsers and phones
/// trust once (`voicealarm serve trust`, or the profile the pairing page offers), after which
/// every certificate `serve` answers with is issued by it and verified by the browser like any
/// web site's. A page served by anyone else — another account squatting the port while `serve`
/// is down, or an address `serve` does not hold — cannot present our origin, so it cannot run
/// in it, register a worker in it, or use the device key kept in it.
///
/// The authority is name-constrained (RFC 5280, marked critical): it can only certify this
/// machine's names (`localhost`, its host name, `NAME.local`), loopback, the private networks
/// its interfaces are on and its own other addresses (`MachineAddresses.networks()`), so even a
/// stolen key speaks for no other site. ECDSA P-256, ten years, made and
/// signed by GnuTLS.
///
/// ```swift
/// let authority = try CertificateAuthority.make(
///     commonName: "VoiceAlarm authority of bedside", dnsNames: ["localhost", "bedside", "bedside.local"],
///     ranges: ["127.0.0.0/8", "::1/128", "192.168.0.0/16"], now: Date())
/// let server = try authority.issue(dnsNames: ["localhost"], ipAddresses: ["127.0.0.1", "::1"], now: Date())
/// authority.issued(server)   // true
/// ```
package struct CertificateAuthority: Sendable, Equatable {
    /// The authority's certificate, PEM: what a browser is given to trust.
    package let certificatePEM: String
    /// Its private key, PEM (PKCS #8, unencrypted). Whoever stores it keeps it private (0600).
    package let keyPEM: String
    /// The SHA-256 of its DER bytes, `AB:12:…`: what a phone shows before it trusts it, and what
    /// the pairing link carries to compare.
    package let fingerprint: String
    /// Its DER bytes: what the pairing page offers a phone to install.
    package let der: Data
    /// When it stops being valid.
    package let notAfter: Date
    /// The DNS names it may certify (each with every name below it).
    package let permittedNames: [String]
    /// The address ranges it may certify, `ADDRESS/PREFIX`.
    package let permittedRanges: [String]

    /// How long an authority made here lasts: trusting it again is a person's chore.
    package static let validDays = 3650

    /// Makes a new ECDSA P-256 key and a self-signed authority for it: a CA that may sign server
    /// certificates only (path length 0), only for `dnsNames` and `ranges`.
    ///
    /// The corresponding C functions are `gnutls_x509_privkey_generate`,
    /// `gnutls_x509_crt_set_basic_constraints`, `gnutls_x509_crt_set_name_constraints` and
    /// `gnutls_x509_crt_sign2`.
    /// - Parameters:
    ///   - dnsNames: host names such as `localhost` and `bedside.local` (ASCII).
    ///   - ranges: address ranges as `ADDRESS/PREFIX` (`192.168.0.0/16`, `::1/128`); at least one.
    /// - Throws: `TLSIdentity.Failure.notAnIPAddress` for a range that does not parse;
    ///   `TLSIdentity.Failure.library` when GnuTLS refuses a field or cannot make the key.
    package static func make(commonName: String, dnsNames: [String], ranges: [String], now: Date) throws(TLSIdentity.Failure) -> CertificateAuthority {
        precondition(!ranges.isEmpty, "an authority permits at least one address range")
        do {
            let key = try X509PrivateKey.generateP256()
            let draft = try CertificateDraft(organization: "VoiceAlarm", commonName: commonName, key: key, now: now, validDays: validDays)
            let crt = draft.certificate.handle
            let constraints = try X509NameConstraints()
            for name in dnsNames { try constraints.permit(dnsName: name) }
            for range in ranges {
                do { try constraints.permit(range: range) } catch { throw TLSIdentity.Failure.notAnIPAddress(range) }
            }
            try constraints.apply(to: draft.certificate)
            try GnuTLSError.check("gnutls_x509_crt_set_basic_constraints") { gnutls_x509_crt_set_basic_constraints(crt, 1, 0) }
            try GnuTLSError.check("gnutls_x509_crt_set_key_usage") {
                gnutls_x509_crt_set_key_usage(crt, UInt32(GNUTLS_KEY_KEY_CERT_SIGN | GNUTLS_KEY_CRL_SIGN))
            }
            let keyID = try draft.certificate.keyIdentifier()
            try GnuTLSError.check("gnutls_x509_crt_set_subject_key_id") { gnutls_x509_crt_set_subject_key_id(crt, keyID, keyID.count) }
            try draft.sign(issuer: nil, key: key)
            return try CertificateAuthority(certificatePEM: try draft.certificate.pem(), keyPEM: try key.pem())
        } catch {
            throw TLSIdentity.Failure(error)
        }
    }

    /// An authority kept from before: both texts parse, and the key is the certificate's.
    /// - Throws: `TLSIdentity.Failure.certificateNotPEM`, `.keyNotPEM` or `.keyDoesNotMatch`.
    package static func load(certificatePEM: String, keyPEM: String) throws(TLSIdentity.Failure) -> CertificateAuthority {
        _ = try X509Certificate.matching(certificatePEM: certificatePEM, keyPEM: keyPEM)
        do throws(GnuTLSError) { return try CertificateAuthority(certificatePEM: certificatePEM, keyPEM: keyPEM) } catch {
            throw .certificateNotPEM(error)
        }
    }

    /// A new key and a server certificate for it, issued by this authority: subject
    /// `O=organization` and, when it has DNS names, `CN=` the first (a verifier that reads a
    /// common name, as GnuTLS does without a DNS name in the subjectAltName, holds it to the
    /// name constraints: so it is never anything else), a subjectAltName of every name and
    /// address, not a CA, digital signature,
    /// TLS server authentication, valid `validDays` (825: the longest Apple's platforms accept).
    /// Its `certificatePEM` holds the certificate and then this authority's (the chain a server
    /// sends).
    ///
    /// The corresponding C functions are `gnutls_x509_crt_set_subject_alt_name`,
    /// `gnutls_x509_crt_set_authority_key_id` and `gnutls_x509_crt_sign2`.
    /// - Throws: `TLSIdentity.Failure.notPermitted` for a name or address outside the
    ///   authority's constraints (a browser would refuse it); `.notAnIPAddress`; `.library`.
    package func issue(
        organization: String = "VoiceAlarm", dnsNames: [String], ipAddresses: [String], now: Date, validDays: Int = 825
    ) throws(TLSIdentity.Failure)
        -> TLSIdentity
    {
        let addresses = try ipAddresses.map { (text) throws(TLSIdentity.Failure) -> [UInt8] in
            guard let bytes = CertificateDraft.addressBytes(text) else { throw TLSIdentity.Failure.notAnIPAddress(text) }
            return bytes
        }
        do {
            let issuer = try X509Certificate.parse(pem: certificatePEM)
            let issuerKey = try X509PrivateKey.parse(pem: keyPEM)
            let constraints = try X509NameConstraints.of(issuer)
            if let outside = dnsNames.first(where: { !constraints.permits(dnsName: $0) })
                ?? zip(ipAddresses, addresses).first(where: {
                    !constraints.permits(address: $0.1)
                })?.0
            {
                throw TLSIdentity.Failure.notPermitted(outside)
            }
            let key = try X509PrivateKey.generateP256()
            let draft = try CertificateDraft(organization: organization, commonName: dnsNames.first, key: key, now: now, validDays: validDays)
            let crt = draft.certificate.handle
            try draft.addSubjectAltNames(dnsNames: dnsNames, addresses: addresses)
            try GnuTLSError.check("gnutls_x509_crt_set_basic_constraints") { gnutls_x509_crt_set_basic_constraints(crt, 0, -1) }
            try GnuTLSError.check("gnutls_x509_crt_set_key_usage") { gnutls_x509_crt_set_key_usage(crt, UInt32(GNUTLS_KEY_DIGITAL_SIGNATURE)) }
            try GnuTLSError.check("gnutls_x509_crt_set_key_purpose_oid") { gnutls_x509_crt_set_key_purpose_oid(crt, GNUTLS_KP_TLS_WWW_SERVER, 0) }
            let authorityKeyID = try issuer.keyIdentifier()
            try GnuTLSError.check("gnutls_x509_crt_set_authority_key_id") {
                gnutls_x509_crt_set_authority_key_id(crt, authorityKeyID, authorityKeyID.count)
            }
            try draft.sign(issuer: issuer, key: issuerKey)
            let leaf = try draft.certificate.pem()
            return try TLSIdentity.load(certificatePEM: leaf + certificatePEM, keyPEM: try key.pem())
        } catch {
            throw TLSIdentity.Failure(error)
        }
    }

    /// Whether this authority issued `identity`'s certificate and it verifies against it now
    /// (signature, validity, constraints).
    package func issued(_ identity: TLSIdentity) -> Bool {
        guard let issuer = try? X509Certificate.parse(pem: certificatePEM), let leaf = try? X509Certificate.parse(pem: identity.certificatePEM) else {
            return false
        }
        return leaf.isIssued(by: issuer)
    }

    /// Whether this authority may certify `name` (a DNS name, or an address in text).
    package func permits(_ name: String) -> Bool {
        guard let constraints = try? X509NameConstraints.of(X509Certificate.parse(pem: certificatePEM)) else { return false }
        if let bytes = CertificateDraft.addressBytes(name) { return constraints.permits(address: bytes) }
        return constraints.permits(dnsName: name)
    }

    private init(certificatePEM: String, keyPEM: String) throws(GnuTLSError) {
        let certificate = try X509Certificate.parse(pem: certificatePEM)
        self.certificatePEM = certificatePEM
        self.keyPEM = keyPEM
        fingerprint = Hex.text(try certificate.sha256Fingerprint(), uppercase: true, separator: ":")
        der = try certificate.der()
        notAfter = try certificate.expiration()
        (permittedNames, permittedRanges) = try X509NameConstraints.of(certificate).permitted()
    }
}
