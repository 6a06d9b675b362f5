import Foundation
import TestSupport
import Testing
import VoiceAlarmHTTP

/// What `openssl` printed for `arguments`; throws when it fails.
private func openssl(_ arguments: [String]) async throws -> String {
    let result = try await ProcessRunner.run("openssl", arguments)
    guard result.status == 0 else { throw TestSupportError("openssl \(arguments.joined(separator: " ")) failed: \(result.stderr)") }
    return result.stdout
}

/// The bytes of an IPv4 or IPv6 address in any of its spellings (`::1`, `0:0:0:0:0:0:0:1`), as hex.
private func addressKey(_ text: String) -> String? {
    var bytes = [UInt8](repeating: 0, count: 16)
    if inet_pton(AF_INET, text, &bytes) == 1 { return bytes.prefix(4).map { String($0) }.joined(separator: ".") }
    if inet_pton(AF_INET6, text, &bytes) == 1 { return bytes.map { String($0) }.joined(separator: ".") }
    return nil
}

/// A server identity issued by an authority that may certify any name and address (the library's
/// own is constrained to the machine's: `CertificateAuthorityTests`).
private func issued(commonName: String, dnsNames: [String], ipAddresses: [String], now: Date, validDays: Int = 825) throws -> TLSIdentity {
    let authority = try CertificateAuthority.make(
        commonName: "Test authority", dnsNames: ["local", "localhost", "a.local", "b.local"], ranges: ["0.0.0.0/0", "::/0"], now: now)
    return try authority.issue(organization: commonName, dnsNames: dnsNames, ipAddresses: ipAddresses, now: now, validDays: validDays)
}

/// An identity and its two PEM files, `cert.pem` and `key.pem`, in a folder of its own.
private struct WrittenIdentity {
    static let dnsNames = ["bedside.local", "localhost"]
    static let ipAddresses = ["127.0.0.1", "192.168.1.20", "::1"]

    let identity: TLSIdentity
    let now: Date
    let folder = TemporaryDirectory("tls")
    var certificate: String { folder.file("cert.pem") }
    var key: String { folder.file("key.pem") }

    init(validDays: Int = 825) throws {
        now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))  // certificates keep seconds
        identity = try issued(
            commonName: "bedside.local", dnsNames: Self.dnsNames,
            ipAddresses: Self.ipAddresses, now: now, validDays: validDays)
        try identity.certificatePEM.write(toFile: certificate, atomically: true, encoding: .utf8)
        try identity.keyPEM.write(toFile: key, atomically: true, encoding: .utf8)
    }
}

@Suite("A server identity issued by an authority, read back by openssl", .timeLimit(.minutes(1)))
struct TLSIdentitySelfSignedTests {
    @Test("openssl prints the same SHA-256 fingerprint")
    func fingerprint() async throws {
        let written = try WrittenIdentity()
        let output = try await openssl(["x509", "-noout", "-fingerprint", "-sha256", "-in", written.certificate])
        let printed = try #require(output.split(separator: "=", maxSplits: 1).last).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(printed == written.identity.fingerprint)
        #expect(written.identity.fingerprint.count == 95)
    }

    @Test("the subjectAltName holds every DNS name and IP address, and nothing else")
    func subjectAltName() async throws {
        let written = try WrittenIdentity()
        let output = try await openssl(["x509", "-noout", "-ext", "subjectAltName", "-in", written.certificate])
        let lines = output.split(separator: "\n")
        #expect(lines.first?.hasPrefix("X509v3 Subject Alternative Name") == true)
        let entries = lines.dropFirst().flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        let names = entries.filter { $0.hasPrefix("DNS:") }.map { String($0.dropFirst(4)) }
        let addresses = entries.filter { $0.hasPrefix("IP Address:") }.map { addressKey(String($0.dropFirst(11))) }
        #expect(names == WrittenIdentity.dnsNames)
        #expect(addresses == WrittenIdentity.ipAddresses.map(addressKey))
        #expect(entries.count == names.count + addresses.count)
    }

    @Test("valid now, from an hour before now until validDays after", arguments: [1, 825])
    func validity(validDays: Int) async throws {
        let written = try WrittenIdentity(validDays: validDays)
        _ = try await openssl(["x509", "-noout", "-checkend", "0", "-in", written.certificate])
        let output = try await openssl(["x509", "-noout", "-startdate", "-enddate", "-dateopt", "iso_8601", "-in", written.certificate])
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss'Z'"
        var dates: [String: Date] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { dates[parts[0]] = formatter.date(from: parts[1]) }
        }
        #expect(dates["notBefore"] == written.now.addingTimeInterval(-3_600))
        #expect(dates["notAfter"] == written.now.addingTimeInterval(TimeInterval(validDays) * 86_400))
        #expect(written.identity.notAfter == dates["notAfter"])
    }

    @Test("the key is an ECDSA P-256 key, and the one the certificate holds")
    func key() async throws {
        let written = try WrittenIdentity()
        #expect(written.identity.keyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let fromKey = try await openssl(["pkey", "-pubout", "-in", written.key])
        let fromCertificate = try await openssl(["x509", "-pubkey", "-noout", "-in", written.certificate])
        #expect(fromKey == fromCertificate)
        let text = try await openssl(["pkey", "-text", "-noout", "-in", written.key])
        #expect(text.contains("ASN1 OID: prime256v1"))
        #expect(text.contains("NIST CURVE: P-256"))
    }

    @Test("a version 3 server certificate: CN, issued by the authority, not a CA, digital signature, server auth, signed with ECDSA SHA-256")
    func extensions() async throws {
        let written = try WrittenIdentity()
        let text = try await openssl(["x509", "-noout", "-text", "-nameopt", "RFC2253", "-in", written.certificate])
        for expected in [
            "Version: 3 (0x2)", "Subject: CN=bedside.local", "Issuer: CN=Test authority,O=VoiceAlarm", "CA:FALSE",
            "Digital Signature", "TLS Web Server Authentication", "Signature Algorithm: ecdsa-with-SHA256",
        ] {
            #expect(text.contains(expected), "\(expected) missing from:\n\(text)")
        }
        #expect(!text.contains("Certificate Sign"))
    }

    @Test("each identity has a key and a positive 16-byte serial of its own")
    func unique() async throws {
        let first = try WrittenIdentity(), second = try WrittenIdentity()
        #expect(first.identity.fingerprint != second.identity.fingerprint)
        #expect(first.identity.keyPEM != second.identity.keyPEM)
        let serials = try await [first, second].asyncMap { try await openssl(["x509", "-noout", "-serial", "-in", $0.certificate]) }
        #expect(serials[0] != serials[1])
        for serial in serials {
            let hex = serial.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst("serial=".count)
            #expect(hex.count == 32)
            #expect(hex.first.map { "4567".contains($0) } == true)  // top bit clear, next one set
        }
    }

    @Test("an address that is neither IPv4 nor IPv6 is refused, by name", arguments: ["bedside.local", "192.168.1", "", "::g"])
    func badAddress(address: String) {
        #expect(throws: TLSIdentity.Failure.notAnIPAddress(address)) {
            try issued(commonName: "x", dnsNames: [], ipAddresses: ["127.0.0.1", address], now: Date())
        }
    }
}

@Suite("Loading a TLS identity", .timeLimit(.minutes(1)))
struct TLSIdentityLoadTests {
    @Test("loading what the authority issued gives the same identity")
    func roundTrip() throws {
        let made = try issued(commonName: "bedside.local", dnsNames: ["bedside.local"], ipAddresses: [], now: Date())
        #expect(try TLSIdentity.load(certificatePEM: made.certificatePEM, keyPEM: made.keyPEM) == made)
    }

    /// `openssl req` arguments for a new key of each kind.
    static let opensslKeys: [String: [String]] = [
        "EC P-384": ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-384"],
        "RSA 2048": ["-newkey", "rsa:2048"],
        "Ed25519": ["-newkey", "ed25519"],
    ]

    @Test("a certificate and key openssl made load, with openssl's fingerprint", arguments: opensslKeys.keys.sorted())
    func madeByOpenSSL(kind: String) async throws {
        let folder = TemporaryDirectory("tls")
        let certificate = folder.file("cert.pem"), key = folder.file("key.pem")
        _ = try await openssl(
            ["req", "-x509", "-nodes", "-subj", "/CN=elsewhere", "-days", "2", "-keyout", key, "-out", certificate]
                + Self.opensslKeys[kind]!)
        let identity = try TLSIdentity.load(
            certificatePEM: String(contentsOfFile: certificate, encoding: .utf8),
            keyPEM: String(contentsOfFile: key, encoding: .utf8))
        let output = try await openssl(["x509", "-noout", "-fingerprint", "-sha256", "-in", certificate])
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("=" + identity.fingerprint))
        #expect(abs(identity.notAfter.timeIntervalSinceNow - 2 * 86_400) < 120)
    }

    /// What `load` is given instead of a matching pair, and the failure it must answer with.
    enum Refusal: String, CaseIterable, Sendable {
        case garbageCertificate, truncatedCertificate, emptyCertificate
        case garbageKey, certificateAsKey, encryptedKey
        case keyOfAnotherIdentity

        func inputs(_ identity: TLSIdentity, other: TLSIdentity) -> (certificate: String, key: String) {
            switch self {
            case .garbageCertificate: ("-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n", identity.keyPEM)
            case .truncatedCertificate: (String(identity.certificatePEM.prefix(200)), identity.keyPEM)
            case .emptyCertificate: ("", identity.keyPEM)
            case .garbageKey: (identity.certificatePEM, "not a key")
            case .certificateAsKey: (identity.certificatePEM, identity.certificatePEM)
            case .encryptedKey: (identity.certificatePEM, Self.encryptedKeyPEM)
            case .keyOfAnotherIdentity: (identity.certificatePEM, other.keyPEM)
            }
        }

        func accepts(_ failure: TLSIdentity.Failure) -> Bool {
            switch (self, failure) {
            case (.garbageCertificate, .certificateNotPEM), (.truncatedCertificate, .certificateNotPEM),
                (.emptyCertificate, .certificateNotPEM):
                true
            case (.garbageKey, .keyNotPEM), (.certificateAsKey, .keyNotPEM), (.encryptedKey, .keyNotPEM): true
            case (.keyOfAnotherIdentity, .keyDoesNotMatch): true
            default: false
            }
        }

        /// A PKCS #8 key encrypted with the password "secret" (`openssl genpkey -algorithm ec
        /// -pkeyopt ec_paramgen_curve:P-256 -aes256 -pass pass:secret`): `load` takes no password.
        static let encryptedKeyPEM = """
            -----BEGIN ENCRYPTED PRIVATE KEY-----
            MIHsMFcGCSqGSIb3DQEFDTBKMCkGCSqGSIb3DQEFDDAcBAjWTt/UUX3TnAICCAAw
            DAYIKoZIhvcNAgkFADAdBglghkgBZQMEASoEEDzY67CLcFP0e5SWGaLvJLQEgZDT
            coxf9is3AlWTYZG3aExQcknG1ByPU0Yaxznq7xgxqEiX6yrpaHyhDHmz2grd5FGi
            MZ9lDu966pqATe/mZTSPRPdzYjvLSHldDp2pDFCgLKqt1B7CwQiVDZNzXNngPYYS
            UoSWM90TGors2kcsYwmQZJqQ7+a4IH0esavfRmaD7/dgClIFMPwocuM4c0d7l/Y=
            -----END ENCRYPTED PRIVATE KEY-----

            """
    }

    @Test("load refuses what does not parse or does not match, saying which", arguments: Refusal.allCases)
    func refuses(refusal: Refusal) throws {
        let identity = try issued(commonName: "a", dnsNames: ["a.local"], ipAddresses: [], now: Date())
        let other = try issued(commonName: "b", dnsNames: ["b.local"], ipAddresses: [], now: Date())
        let (certificate, key) = refusal.inputs(identity, other: other)
        let failure = try #require(throws: TLSIdentity.Failure.self) { try TLSIdentity.load(certificatePEM: certificate, keyPEM: key) }
        #expect(refusal.accepts(failure), "\(failure)")
        #expect(!"\(failure)".contains("\n"))
    }

    @Test("the failures read as one lowercase line naming the certificate or the key")
    func messages() {
        let parse = GnuTLSError(operation: "gnutls_x509_crt_import", code: -34)  // GNUTLS_E_BASE64_DECODING_ERROR
        #expect("\(TLSIdentity.Failure.certificateNotPEM(parse))" == "the certificate is not PEM X.509: Base64 decoding error")
        #expect("\(TLSIdentity.Failure.keyDoesNotMatch)" == "the private key does not belong to the certificate")
    }
}

@Suite("A TLS identity judged as a browser judges it", .timeLimit(.minutes(1)))
struct TLSIdentityCheckTests {
    /// openssl `req` key arguments, what `publicKey` must read from the certificate, and whether
    /// it is strong enough (RSA-2048 and P-256 are the floor browsers ask).
    static let kinds: [(arguments: [String], described: String, strong: Bool)] = [
        (["-newkey", "rsa:1024"], "RSA-1024", false),
        (["-newkey", "rsa:2048"], "RSA-2048", true),
        (["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"], "ECDSA P-256", true),
        (["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-384"], "ECDSA P-384", true),
        (["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime192v1"], "ECDSA P-192", false),
        (["-newkey", "ed25519"], "Ed25519", true),
    ]

    @Test("the key's algorithm and size are read from the certificate, and weak ones refused", arguments: kinds)
    func keys(arguments: [String], described: String, strong: Bool) async throws {
        let folder = TemporaryDirectory("tls-check")
        let certificate = folder.file("cert.pem"), key = folder.file("key.pem")
        _ = try await openssl(["req", "-x509", "-nodes", "-subj", "/CN=bedside", "-days", "2", "-keyout", key, "-out", certificate] + arguments)
        let identity = try TLSIdentity.load(
            certificatePEM: String(contentsOfFile: certificate, encoding: .utf8),
            keyPEM: String(contentsOfFile: key, encoding: .utf8))
        #expect(identity.publicKey.description == described)
        #expect(identity.publicKey.isStrongEnough == strong)
        if strong {
            try identity.check(at: Date())
        } else {
            #expect(throws: TLSIdentity.Failure.weakKey(identity.publicKey)) { try identity.check(at: Date()) }
        }
    }

    @Test("valid from its notBefore until its notAfter: refused before and after, expiring soon within 30 days of the end")
    func validity() throws {
        let now = Date(timeIntervalSince1970: 1_796_000_000)
        let identity = try issued(commonName: "bedside", dnsNames: ["bedside.local"], ipAddresses: ["127.0.0.1"], now: now, validDays: 90)
        #expect(identity.notBefore == now.addingTimeInterval(-3600))
        #expect(identity.dnsNames == ["bedside.local"], "\(identity.dnsNames)"); #expect(identity.ipAddresses == ["127.0.0.1"], "\(identity.ipAddresses)")
        try identity.check(at: now)
        #expect(throws: TLSIdentity.Failure.notYetValid(identity.notBefore)) { try identity.check(at: now.addingTimeInterval(-3601)) }
        #expect(throws: TLSIdentity.Failure.expired(identity.notAfter)) { try identity.check(at: identity.notAfter) }
        #expect(!identity.expiresSoon(at: now))
        #expect(identity.expiresSoon(at: identity.notAfter.addingTimeInterval(-29 * 86_400)))
        #expect("\(TLSIdentity.Failure.expired(now))" == "the certificate expired on 2026-11-30 00:53 UTC: browsers refuse it")
    }
}
