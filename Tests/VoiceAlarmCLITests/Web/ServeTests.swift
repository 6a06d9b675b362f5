import Foundation
import TestSupport
import Testing

/// `voicealarm serve` through the binary, asked by curl and openssl over real sockets.
@Suite("voicealarm serve: the real server")
struct ServeTests {
    @Test(
        "HTTPS on loopback from the library's own authority: made on first start, name-constrained, verified by curl and openssl without -k, kept",
        .timeLimit(.minutes(1)))
    func https() async throws {
        let folder = TemporaryDirectory("serve")
        let data = folder.file("data")
        let server = try await ServeProcess(dataDir: data)
        #expect(server.url.hasPrefix("https://127.0.0.1:"))
        let printed = try #require(server.fingerprint), authority = try #require(server.authority)
        // Said on stderr after the JSON on stdout, read from a pipe: waited for.
        #expect(await server.said("Made this library's certificate authority") && server.stderr.contains(authority))
        // What the server really serves, read by openssl: the certificate and the authority's chain, verified.
        let served = try await ProcessRunner.run(
            "/bin/sh",
            ["-c", "openssl s_client -connect 127.0.0.1:\(server.port) -CAfile \(data)/web/authority.pem -verify_return_error </dev/null 2>&1"])
        #expect(served.stdout.contains("Verify return code: 0 (ok)"), "\(served.stdout.suffix(600))")
        let leaf = try await ProcessRunner.run(
            "/bin/sh", ["-c", "openssl s_client -connect 127.0.0.1:\(server.port) </dev/null 2>/dev/null | openssl x509 -noout -fingerprint -sha256"])
        #expect(leaf.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "sha256 Fingerprint=\(printed)")
        let ca = try await ProcessRunner.run("/usr/bin/openssl", ["x509", "-in", "\(data)/web/authority.pem", "-noout", "-fingerprint", "-sha256", "-text"])
        #expect(ca.stdout.contains("sha256 Fingerprint=\(authority)"))
        #expect(ca.stdout.contains("X509v3 Name Constraints: critical") && ca.stdout.contains("DNS:localhost") && ca.stdout.contains("IP:127.0.0.0/255.0.0.0"))
        #expect(ca.stdout.contains("CA:TRUE, pathlen:0"), "\(ca.stdout)")
        // curl verifies against the authority alone; plain HTTP gets no page at all.
        #expect(try await server.curl("GET", "/api/status").status == 401)
        let plain = try await ProcessRunner.run(
            "/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "10", "http://127.0.0.1:\(server.port)/"])
        #expect(plain.stdout == "000" && plain.status != 0, "no plain HTTP: \(plain.stdout)")
        for file in ["key.pem", "authority-key.pem"] {
            #expect(try FileManager.default.attributesOfItem(atPath: "\(data)/web/\(file)")[.posixPermissions] as? Int == 0o600, "\(file)")
        }
        _ = await server.stop()
        let again = try await ServeProcess(dataDir: data)
        #expect(again.fingerprint == printed && again.authority == authority, "the same certificate and authority at the next start")
        _ = await again.stop()
        let lan = try await ServeProcess(dataDir: data, arguments: ["--listen", "0.0.0.0:0"])
        #expect(
            lan.url.hasPrefix("https://") && lan.link.contains("/pair?code=")
                && lan.link.hasSuffix("#authority=" + authority.replacingOccurrences(of: ":", with: "")))
        #expect(lan.authority == authority && lan.fingerprint != printed, "a certificate for what it holds now, from the same authority")
        #expect(await lan.said("Issued a new certificate"))
        _ = await lan.stop()
    }

    @Test(
        "A library of an earlier version moves from its self-signed certificate to the authority: a paired phone that trusts it keeps its pairing",
        .timeLimit(.minutes(1)))
    func movesToTheAuthority() async throws {
        let folder = TemporaryDirectory("serve")
        let data = folder.file("data")
        var server = try await ServeProcess(dataDir: data)
        let phone = try await server.pairBrowser()
        let port = server.port
        _ = await server.stop()
        // What earlier versions kept: a self-signed certificate and its key, and no authority.
        for file in ["authority.pem", "authority-key.pem", "certificate.pem", "key.pem"] { try? FileManager.default.removeItem(atPath: "\(data)/web/\(file)") }
        let made = try await ProcessRunner.run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "30", "-subj", "/CN=VoiceAlarm",
                "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", "\(data)/web/key.pem", "-out", "\(data)/web/certificate.pem",
            ])
        #expect(made.status == 0, "\(made.stderr)")
        server = try await ServeProcess(dataDir: data, arguments: ["--listen", "127.0.0.1:\(port)", "--no-pairing"])
        #expect(await server.said("Replaced the self-signed certificate of earlier versions"), "\(server.stderr)")
        #expect(await server.said("pairs again at https://127.0.0.1:\(port)"), "it says what a browser of plain HTTP must do")
        // The same origin, the same device key: a new session without pairing again.
        let session = try await server.session(device: phone.device, key: phone.key)
        #expect(try await server.curl("GET", "/api/alarms", ["-H", "X-VoiceAlarm-Session: \(session)"]).status == 200)
        _ = await server.stop()
    }

    @Test(
        "Bad input to serve: one error line naming it, exit 64 or 1, nothing started",
        arguments: [
            (["--listen", "bedside.example:8470"], 64, "not localhost nor a numeric IPv4 or IPv6 address"),
            (["--listen", "127.0.0.1:http"], 64, "not a port"),
            (["--listen", "127.0.0.1:0", "--cert", "/nonexistent.pem"], 64, "--cert and --key go together"),
            (["--listen", "127.0.0.1:0", "--cert", "/nonexistent.pem", "--key", "/nonexistent.key"], 1, "/nonexistent.pem: no such file"),
        ] as [([String], Int32, String)])
    func badInput(_ arguments: [String], _ status: Int32, _ words: String) async throws {
        let folder = TemporaryDirectory("serve")
        let result = try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", folder.file("data"), "serve"] + arguments)
        #expect(result.status == status)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.first?.hasPrefix("error: ") == true && lines.first?.contains(words) == true, "\(result.stderr)")
    }

    @Test("A port already taken is refused with the reason", .timeLimit(.minutes(1)))
    func portTaken() async throws {
        let folder = TemporaryDirectory("serve")
        let first = try await ServeProcess(dataDir: folder.file("data"))
        let port = String(first.url.split(separator: ":").last!)
        let second = try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", folder.file("data"), "serve", "--listen", "127.0.0.1:\(port)"])
        #expect(second.status == 1)
        #expect(second.stderr.contains("error: cannot listen on 127.0.0.1:\(port): Address already in use"), "\(second.stderr)")
        _ = await first.stop()
    }

    @Test("Pairing through the real server; the device listed and revoked; a script's token", .timeLimit(.minutes(1)))
    func pairing() async throws {
        let folder = TemporaryDirectory("serve")
        let data = folder.file("data")
        let server = try await ServeProcess(dataDir: data)
        let key = try await BrowserKey.make(in: folder.path)
        let wrong = try await server.curl(
            "POST", "/api/pair", ["-H", "Content-Type: application/json", "-d", #"{"code": "AAAAAAAAAA", "key": "\#(key.publicKey)"}"#])
        #expect(wrong.status == 403)
        let browser = try await server.pairBrowser()
        #expect(try await server.curl("GET", "/api/alarms", browser.curl).status == 200)
        #expect(!server.stderr.contains(browser.session), "the session is never logged")
        #expect(await server.logged("POST /api/pair 201"))
        // On loopback no QR code: no phone can open it. For the network, `serve pair`'s QR code is
        // its link, as a phone's camera would read it.
        func drawing(_ text: String) -> String {
            text.split(separator: "\n").filter { line in !line.isEmpty && line.allSatisfy { "█▀▄ ".contains($0) } }.joined(separator: "\n")
        }
        #expect(drawing(server.stderr).isEmpty && server.stderr.contains("A phone cannot reach"), "\(server.stderr)")
        let lan = try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", data, "serve", "pair", "--listen", "0.0.0.0:8470"])
        let lanLink = lan.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        if lan.stderr.contains("Only this machine can open") {
            #expect(drawing(lan.stderr).isEmpty, "a machine with no network address: no QR code")
        } else {
            #expect(try await TerminalQR.scan(drawing(lan.stderr)) == lanLink, "\(lan.stderr)")
        }
        let devices = try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", data, "--json", "serve", "devices"])
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(devices.stdout.utf8)) as? [[String: Any]])
        #expect(listed.map { $0["name"] as? String } == ["Phone"] && !devices.stdout.contains(browser.session))
        let id = try #require(listed.first?["id"] as? String)
        let revoked = try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", data, "serve", "revoke", String(id.prefix(8))])
        #expect(revoked.status == 0 && revoked.stdout == "\(id)\n")
        #expect(try await server.curl("GET", "/api/alarms", browser.curl).status == 401)
        let made = try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", data, "token", "create", "backup script"])
        let scriptToken = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(made.status == 0 && scriptToken.count == 43)
        let bearer = try await server.curl("POST", "/api/stop", ["-H", "Authorization: Bearer \(scriptToken)"], origin: false)
        #expect(bearer.status == 200 && (bearer.json as? [String: Any])?["stopped"] as? [String] == [])
        let unknown = try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", data, "serve", "revoke", "ffffffff"])
        #expect(unknown.status == 1 && unknown.stderr.hasPrefix("error: ffffffff: no such device"))
        _ = await server.stop()
    }

    @Test("serve --no-pairing (a service's way) prints no code, and says how to get one", .timeLimit(.minutes(1)))
    func noPairing() async throws {
        let folder = TemporaryDirectory("serve")
        let server = try await ServeProcess(dataDir: folder.file("data"), arguments: ["--listen", "127.0.0.1:0", "--no-pairing"])
        #expect(server.document["pairing"] is NSNull)
        #expect(await server.said("'voicealarm serve pair' prints a pairing link") && !server.stderr.contains("code="))
        _ = await server.stop()
    }

    @Test("The scheduler serve was started with is taken on once: a switch made later at the terminal stays", .timeLimit(.minutes(1)))
    func schedulerNotUndone() async throws {
        let folder = TemporaryDirectory("serve")
        let data = folder.file("data"), units = folder.file("units")
        func voicealarm(_ arguments: [String]) async throws -> String {
            let result = try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", data] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let clip = try await voicealarm(["clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav", "-q"])
        _ = try await voicealarm(["manifesto", "set", clip, "-q"])
        _ = try await voicealarm(["alarm", "add", "manifesto", "--at", "07:00", "--days", "mon", "-q"])
        let server = try await ServeProcess(
            dataDir: data, arguments: ["--listen", "127.0.0.1:0", "--no-pairing", "--scheduler", "systemd", "--unit-dir", units])
        #expect(try FileManager.default.contentsOfDirectory(atPath: units).contains { $0.hasSuffix(".timer") }, "serve took on systemd at start")
        _ = try await voicealarm(["--scheduler", "embedded", "reconcile", "-q"])
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: units)).contains { $0.hasSuffix(".timer") })
        let token = try await voicealarm(["token", "create", "script"])
        for path in ["/api/alarms", "/api/status", "/api/clips"] {
            #expect(try await server.curl("GET", path, ["-H", "Authorization: Bearer \(token)"], origin: false).status == 200)
        }
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: units)).contains { $0.hasSuffix(".timer") }, "no request moved the alarms back")
        #expect(server.stderr.components(separatedBy: "Switched from the embedded scheduler").count == 2, "only at start: \(server.stderr)")
        _ = await server.stop()
    }

    @Test("serve pair prints the link of the server running now, whose code pairs there; a loopback server gets no QR code", .timeLimit(.minutes(1)))
    func pairFollowsRunningServer() async throws {
        let folder = TemporaryDirectory("serve")
        let data = folder.file("data")
        let server = try await ServeProcess(dataDir: data, arguments: ["--listen", "127.0.0.1:0", "--no-pairing"])
        #expect(await server.said("A phone cannot reach 127.0.0.1") || server.stderr.contains("serve pair"), "\(server.stderr)")
        let pair = try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", data, "serve", "pair"])
        #expect(pair.status == 0, "\(pair.stderr)")
        let link = pair.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(link.hasPrefix("\(server.url)/pair?code="), "the running server's scheme, address and port: \(link) vs \(server.url)")
        #expect(pair.stderr.contains("Only this machine can open") && !pair.stderr.contains("▀") && !pair.stderr.contains("█"), "no QR code: \(pair.stderr)")
        // The code it printed pairs at that server.
        let code = try #require(URLComponents(string: link)?.queryItems?.first { $0.name == "code" }?.value)
        _ = try await server.pairBrowser(code: code)
        _ = await server.stop()
        let after = try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", data, "serve", "pair"])
        #expect(after.status == 0 && after.stderr.contains("no server runs for this library now"), "\(after.stderr)")
    }
}
