internal import CGnuTLS
import Foundation

/// The certificate and private key `voicealarm serve` answers HTTPS with, and the certificate's
/// facts: its fingerprint, validity, key and names.
///
/// Issued by the library's own `CertificateAuthority` (a home server has no name a public
/// authority would certify) or the person's own (`--cert`, `--key`), and kept as two PEM texts;
/// loaded again with `load(…)`, which checks that the two belong together. GnuTLS does the key
/// generation, encoding and signing.
///
/// ```swift
/// let identity = try authority.issue(dnsNames: ["bedside.local", "localhost"], ipAddresses: ["192.168.1.20"], now: Date())
/// print(identity.fingerprint)   // 3F:A0:…:9C, as `openssl x509 -noout -fingerprint -sha256` prints it
/// let again = try TLSIdentity.load(certificatePEM: identity.certificatePEM, keyPEM: identity.keyPEM)
/// ```
package struct TLSIdentity: Sendable, Equatable {
    /// The X.509 certificate, PEM (`BEGIN CERTIFICATE`), followed by its issuers' when it was
    /// kept with its chain (an issued one is): what the server sends.
    package let certificatePEM: String
    /// The private key, PEM: PKCS #8 unencrypted (`BEGIN PRIVATE KEY`) for a key made here; as
    /// given for a loaded one. Whoever stores it keeps it private (mode 0600).
    package let keyPEM: String
    /// The SHA-256 of the certificate's DER bytes, uppercase hexadecimal pairs joined by colons
    /// (`AB:12:…`, 95 characters): what `openssl x509 -noout -fingerprint -sha256` prints after
    /// the `=`, and what browsers show as the certificate's SHA-256 fingerprint.
    package let fingerprint: String
    /// When the certificate starts being valid (its notBefore), to the second.
    package let notBefore: Date
    /// When the certificate stops being valid (its notAfter), to the second.
    package let notAfter: Date
    /// The certificate's public key: its algorithm and size, judged by `check(at:)`.
    package let publicKey: PublicKey
    /// The DNS names of the certificate's subjectAltName: the names a browser accepts it for, and
    /// so the names a request's `Host` may give.
    package let dnsNames: [String]
    /// The IP addresses of the certificate's subjectAltName, in text.
    package let ipAddresses: [String]

    /// How long before its notAfter a certificate counts as expiring soon: a certificate made
    /// here is made again then, and a person's own is warned of at every start.
    package static let renewalWindow: TimeInterval = 30 * 86_400

    /// An identity kept from before: parses both texts, checks that the key is the certificate's,
    /// and computes the fingerprint. Any key type GnuTLS reads is accepted here (ECDSA, RSA,
    /// Ed25519), so a certificate made elsewhere can be used too; whether it is valid now and
    /// strong enough is `check(at:)`'s question.
    ///
    /// The corresponding C functions are `gnutls_x509_crt_import`, `gnutls_x509_privkey_import2`,
    /// `gnutls_x509_crt_get_key_id` and `gnutls_x509_privkey_get_key_id`.
    /// - Throws: `Failure.certificateNotPEM`, `Failure.keyNotPEM` or `Failure.keyDoesNotMatch`.
    package static func load(certificatePEM: String, keyPEM: String) throws(Failure) -> TLSIdentity {
        let certificate = try X509Certificate.matching(certificatePEM: certificatePEM, keyPEM: keyPEM)
        do throws(GnuTLSError) { return try TLSIdentity(certificatePEM: certificatePEM, keyPEM: keyPEM, certificate: certificate) } catch {
            throw .certificateNotPEM(error)
        }
    }

    /// Refuses an identity a browser would refuse at `now`, or whose key is weaker than RSA-2048
    /// or ECDSA P-256 (NIST's 112-bit floor, what browsers ask of a certificate). A server that
    /// starts with such a pair serves nobody: the phone's browser shows an error with no way on.
    /// - Throws: `Failure.notYetValid`, `Failure.expired` or `Failure.weakKey`.
    package func check(at now: Date) throws(Failure) {
        guard now >= notBefore else { throw .notYetValid(notBefore) }
        guard now < notAfter else { throw .expired(notAfter) }
        guard publicKey.isStrongEnough else { throw .weakKey(publicKey) }
    }

    /// Whether the certificate ends within `renewalWindow` of `now`: time to make or get another.
    package func expiresSoon(at now: Date) -> Bool { notAfter.timeIntervalSince(now) < Self.renewalWindow }

    /// The identity's facts read from a parsed certificate.
    private init(certificatePEM: String, keyPEM: String, certificate: X509Certificate) throws(GnuTLSError) {
        self.certificatePEM = certificatePEM
        self.keyPEM = keyPEM
        fingerprint = Hex.text(try certificate.sha256Fingerprint(), uppercase: true, separator: ":")
        notBefore = try certificate.activation()
        notAfter = try certificate.expiration()
        publicKey = try certificate.publicKey()
        (dnsNames, ipAddresses) = try certificate.subjectAltNames()
    }
}

extension TLSIdentity {
    /// `2026-12-05 11:57 UTC`: a certificate's times are UTC, as `openssl x509 -dates` prints them.
    package static func utcText(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d UTC", c.year!, c.month!, c.day!, c.hour!, c.minute!)
    }

    /// A certificate's public key: its algorithm and size.
    package struct PublicKey: Sendable, Equatable, CustomStringConvertible {
        package enum Algorithm: Sendable, Equatable {
            case rsa, rsaPSS, ecdsa, ed25519, ed448, dsa
            /// Another algorithm GnuTLS reads (GOST, say), by GnuTLS's name.
            case other(String)
        }

        package var algorithm: Algorithm
        /// The modulus's size for RSA, the curve's for ECDSA (256 for P-256).
        package var bits: Int

        package init(algorithm: Algorithm, bits: Int) {
            self.algorithm = algorithm
            self.bits = bits
        }

        /// At least 112-bit security in a form browsers take: RSA of 2048 bits or more, ECDSA on
        /// P-256 or larger, Ed25519 and Ed448. DSA is refused whatever its size (TLS 1.3 has none).
        package var isStrongEnough: Bool {
            switch algorithm {
            case .rsa, .rsaPSS: bits >= 2048
            case .ecdsa: bits >= 256
            case .ed25519, .ed448: true
            case .dsa, .other: false
            }
        }

        /// `RSA-1024`, `ECDSA P-256`, `Ed25519`, `DSA-2048`.
        package var description: String {
            switch algorithm {
            case .rsa: "RSA-\(bits)"
            case .rsaPSS: "RSA-PSS-\(bits)"
            case .ecdsa: bits == 521 || bits == 384 || bits == 256 || bits == 224 || bits == 192 ? "ECDSA P-\(bits)" : "ECDSA \(bits)-bit"
            case .ed25519: "Ed25519"
            case .ed448: "Ed448"
            case .dsa: "DSA-\(bits)"
            case .other(let name): "\(name) \(bits)-bit"
            }
        }
    }

    /// Why an identity could not be made or loaded, in one lowercase line.
    package enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// `error` as a failure: itself when it is one, else GnuTLS's refusal (the only other
        /// error the calls that make a certificate throw).
        init(_ error: any Error) {
            switch error {
            case let failure as Failure: self = failure
            case let library as GnuTLSError: self = .library(library)
            default: preconditionFailure("a certificate's making threw \(error)")
            }
        }

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
        /// A name or address the authority may not certify (its name constraints).
        case notPermitted(String)
        /// The certificate's validity starts after now (its notBefore).
        case notYetValid(Date)
        /// The certificate's validity ended (its notAfter).
        case expired(Date)
        /// The certificate's key is weaker than RSA-2048 or ECDSA P-256.
        case weakKey(PublicKey)

        package var description: String {
            switch self {
            case .certificateNotPEM(let error): "the certificate is not PEM X.509: \(error.reason)"
            case .keyNotPEM(let error): "the private key is not an unencrypted PEM key: \(error.reason)"
            case .keyDoesNotMatch: "the private key does not belong to the certificate"
            case .notAnIPAddress(let text): "not an IP address: \(text)"
            case .library(let error): "cannot make the certificate: \(error)"
            case .notPermitted(let name): "'\(name)' is not a name of this machine that its authority may certify"
            case .notYetValid(let date): "the certificate is not valid until \(TLSIdentity.utcText(date)): browsers refuse it until then"
            case .expired(let date): "the certificate expired on \(TLSIdentity.utcText(date)): browsers refuse it"
            case .weakKey(let key): "the certificate's key is \(key), weaker than RSA-2048 or ECDSA P-256: browsers refuse it"
            }
        }
    }
}
