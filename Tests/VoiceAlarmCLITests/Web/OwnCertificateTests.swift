import Foundation
import TestSupport
import Testing

/// A person's own certificate and key (issue 30's eighth hole): made by openssl (faketime for
/// dates), examined by `serve` and `service install --web` before anything listens or is
/// written, and verified as served by curl.
@Suite("A person's own certificate and key")
struct OwnCertificateTests {
    /// A person's own pair that `serve` and `service install --web` refuse: how openssl makes it
    /// (the days its certificate is shifted by, through faketime, and its key), the key file's
    /// mode, the file the error names, and the words after that name.
    struct OwnPair: Sendable, CustomTestStringConvertible {
        var name: String, shift: String?, key: [String], keyMode: Int, names: String, words: String
        var testDescription: String { name }
    }

    static let refusedPairs: [OwnPair] = [
        OwnPair(name: "expired", shift: "-400d", key: p256, keyMode: 0o600, names: "cert.pem", words: "the certificate expired on "),
        OwnPair(name: "not yet valid", shift: "+400d", key: p256, keyMode: 0o600, names: "cert.pem", words: "the certificate is not valid until "),
        OwnPair(
            name: "RSA-1024", shift: nil, key: ["-newkey", "rsa:1024"], keyMode: 0o600, names: "cert.pem",
            words: "the certificate's key is RSA-1024, weaker than RSA-2048 or ECDSA P-256: browsers refuse it"),
        OwnPair(
            name: "key readable by others", shift: nil, key: p256, keyMode: 0o644, names: "key.pem",
            words: "other accounts can read or change this private key (mode 0644): 'chmod 600' it"),
        OwnPair(
            name: "key writable by others", shift: nil, key: p256, keyMode: 0o602, names: "key.pem",
            words: "other accounts can read or change this private key (mode 0602)"),
    ]
    static let p256 = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"]

    /// `cert.pem` and `key.pem` in `folder`, made by openssl `shift` days from now, valid 30 days.
    private static func ownPair(_ pair: OwnPair, in folder: String, days: Int = 30) async throws -> (certificate: String, key: String) {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let certificate = "\(folder)/cert.pem", key = "\(folder)/key.pem"
        let request =
            [
                "openssl", "req", "-x509", "-nodes", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                "-days", String(days), "-keyout", key, "-out", certificate,
            ] + pair.key
        let made = try await ProcessRunner.run(
            pair.shift == nil ? "/usr/bin/env" : FakeClock.wrapper,
            (pair.shift.map { ["-f", $0] } ?? []) + request)
        guard made.status == 0 else { throw TestSupportError("openssl req failed: \(made.stderr)") }
        chmod(key, mode_t(pair.keyMode))
        return (certificate, key)
    }

    @Test(
        "A person's own certificate and key are examined before anything listens: an expired, not yet valid or weak one, or a key others can read, is refused",
        .timeLimit(.minutes(1)), arguments: refusedPairs)
    func ownCertificateRefused(_ pair: OwnPair) async throws {
        let folder = TemporaryDirectory("own-pair")
        let (certificate, key) = try await Self.ownPair(pair, in: folder.file("tls"))
        let named = pair.names == "key.pem" ? key : certificate
        // A serve that took the pair would listen until stopped: `timeout` ends it (124), and the test fails.
        let serve = try await ProcessRunner.run(
            "/usr/bin/timeout",
            [
                "10", ProjectPaths.binary, "--data-dir", folder.file("data"), "--json", "serve",
                "--listen", "127.0.0.1:0", "--cert", certificate, "--key", key,
            ])
        #expect(serve.status == 1)
        let lines = serve.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("error: \(named): \(pair.words)"), "\(serve.stderr)")
        let error = (try? JSONSerialization.jsonObject(with: serve.stdoutData) as? [String: Any])?["error"] as? [String: Any]
        #expect(error?["input"] as? String == named && error?["code"] as? Int == 1, "\(serve.stdout)")
        #expect(!serve.stdout.contains("\"url\""), "nothing listened")
        // The service would fail at every start: it is not installed with that pair.
        let units = folder.file("units")
        let install = try await ProcessRunner.run(
            ProjectPaths.binary,
            [
                "--data-dir", folder.file("data"), "--unit-dir", units, "service", "install",
                "--web", "--listen", "127.0.0.1:8470", "--cert", certificate, "--key", key,
            ])
        #expect(install.status == 1 && install.stderr.hasPrefix("error: \(named): \(pair.words)"), "\(install.stderr)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: units)) ?? []).isEmpty, "no unit written")
    }

    @Test(
        "A person's own RSA-2048 pair with the key shared with a group is served as is; one that ends within 30 days is served with a warning at every start",
        .timeLimit(.minutes(1)))
    func ownCertificateServed() async throws {
        let folder = TemporaryDirectory("own-pair")
        let shared = OwnPair(name: "RSA-2048, 0640", shift: nil, key: ["-newkey", "rsa:2048"], keyMode: 0o640, names: "", words: "")
        for (pair, days) in [(shared, 365), (OwnPair(name: "ends in 10 days", shift: nil, key: Self.p256, keyMode: 0o600, names: "", words: ""), 10)] {
            let (certificate, key) = try await Self.ownPair(pair, in: folder.file("tls-\(days)"), days: days)
            let server = try await ServeProcess(dataDir: folder.file("data"), arguments: ["--listen", "127.0.0.1:0", "--cert", certificate, "--key", key])
            // curl verifies the served certificate against the person's file: it is theirs, not one made here.
            let verified = try await ProcessRunner.run(
                "/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", certificate, "\(server.url)/api/status"])
            #expect(verified.stdout == "401", "\(pair.name): \(verified.stderr)")
            let warned = server.stderr.contains("warning: \(certificate): the certificate expires on ") && server.stderr.contains("(in 9 days)")
            #expect(warned == (days == 10), "\(pair.name): \(server.stderr)")
            #expect(try FileManager.default.attributesOfItem(atPath: key)[.posixPermissions] as? Int == pair.keyMode, "the key's mode is the person's")
            _ = await server.stop()
        }
    }
}
