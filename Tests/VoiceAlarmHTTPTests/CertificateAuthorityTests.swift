import Foundation
import TestSupport
import Testing
import VoiceAlarmHTTP

/// What `openssl` printed for `arguments`; throws when it fails.
private func openssl(_ arguments: [String]) async throws -> ProcessResult {
    try await ProcessRunner.run("/usr/bin/openssl", arguments)
}

@Suite("The library's certificate authority: name-constrained, verified by openssl", .timeLimit(.minutes(1)))
struct CertificateAuthorityTests {
    static let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))

    static func authority() throws -> CertificateAuthority {
        try CertificateAuthority.make(
            commonName: "VoiceAlarm authority of bedside", dnsNames: ["localhost", "bedside", "bedside.local"],
            ranges: ["127.0.0.0/8", "::1/128", "192.168.1.0/24", "fd00::/64"], now: now)
    }

    @Test("A CA for servers only: critical name constraints, path length 0, certificate signing, ten years")
    func extensions() async throws {
        let folder = TemporaryDirectory("authority")
        let authority = try Self.authority()
        try authority.certificatePEM.write(toFile: folder.file("ca.pem"), atomically: true, encoding: .utf8)
        let text = try await openssl(["x509", "-noout", "-text", "-fingerprint", "-sha256", "-in", folder.file("ca.pem")]).stdout
        for expected in [
            "X509v3 Name Constraints: critical", "DNS:localhost", "DNS:bedside.local", "IP:127.0.0.0/255.0.0.0",
            "IP:192.168.1.0/255.255.255.0", "CA:TRUE, pathlen:0", "Certificate Sign", "sha256 Fingerprint=\(authority.fingerprint)",
        ] {
            #expect(text.contains(expected), "\(expected) missing from:\n\(text)")
        }
        #expect(authority.permittedNames == ["localhost", "bedside", "bedside.local"])
        #expect(authority.permittedRanges == ["127.0.0.0/8", "::1/128", "192.168.1.0/24", "fd00::/64"])
        #expect(abs(authority.notAfter.timeIntervalSince(Self.now) - Double(CertificateAuthority.validDays) * 86_400) < 2)
        let loaded = try CertificateAuthority.load(certificatePEM: authority.certificatePEM, keyPEM: authority.keyPEM)
        #expect(loaded == authority)
    }

    @Test("A server certificate it issues verifies against it alone (openssl verify), chain included")
    func issues() async throws {
        let folder = TemporaryDirectory("authority")
        let authority = try Self.authority()
        let server = try authority.issue(dnsNames: ["localhost", "bedside.local"], ipAddresses: ["127.0.0.1", "::1", "192.168.1.20"], now: Self.now)
        #expect(authority.issued(server))
        try authority.certificatePEM.write(toFile: folder.file("ca.pem"), atomically: true, encoding: .utf8)
        try server.certificatePEM.write(toFile: folder.file("server.pem"), atomically: true, encoding: .utf8)
        let verified = try await openssl(["verify", "-CAfile", folder.file("ca.pem"), "-purpose", "sslserver", folder.file("server.pem")])
        #expect(verified.status == 0 && verified.stdout.contains(": OK"), "\(verified.stdout) \(verified.stderr)")
        #expect(server.certificatePEM.components(separatedBy: "BEGIN CERTIFICATE").count == 3, "the certificate, then the authority's")
        let other = try Self.authority()
        #expect(!other.issued(server), "another authority did not issue it")
        // With addresses alone it carries no common name a verifier would hold to the DNS constraints (GnuTLS does).
        #expect(authority.issued(try authority.issue(dnsNames: [], ipAddresses: ["127.0.0.1"], now: Self.now)))
    }

    @Test(
        "It refuses to issue for a name or address outside its constraints, and says which",
        arguments: [(["example.com"], [String]()), (["localhost"], ["10.0.0.1"]), ([String](), ["2001:db8::1"]), (["bedside.evil"], [String]())])
    func outside(dnsNames: [String], addresses: [String]) throws {
        let authority = try Self.authority()
        let outside = (dnsNames + addresses).first { !authority.permits($0) }
        #expect(throws: TLSIdentity.Failure.notPermitted(outside ?? "")) {
            try authority.issue(dnsNames: dnsNames, ipAddresses: addresses, now: Self.now)
        }
    }

    @Test("Even a certificate signed with its key outside its constraints is refused by a verifier (openssl)")
    func constraintsHold() async throws {
        let folder = TemporaryDirectory("authority")
        let authority = try Self.authority()
        try authority.certificatePEM.write(toFile: folder.file("ca.pem"), atomically: true, encoding: .utf8)
        try authority.keyPEM.write(toFile: folder.file("ca.key"), atomically: true, encoding: .utf8)
        // A thief with the key signs a certificate for another site with openssl itself.
        let made = try await ProcessRunner.run(
            "/bin/sh",
            [
                "-c",
                """
                cd \(folder.path) && openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout evil.key -subj /CN=bank.example -out evil.csr 2>/dev/null \
                && printf 'subjectAltName=DNS:bank.example\\n' > ext && openssl x509 -req -in evil.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 -extfile ext -out evil.pem 2>/dev/null
                """,
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let verified = try await openssl(["verify", "-CAfile", folder.file("ca.pem"), folder.file("evil.pem")])
        #expect(verified.status != 0 && (verified.stdout + verified.stderr).contains("permitted subtree violation"), "\(verified.stdout) \(verified.stderr)")
    }
}
