import Foundation
import Testing
import TestSupport

/// `voicealarm serve` through the binary, asked by curl and openssl over real sockets.
@Suite("voicealarm serve: the real server")
struct ServeTests {
    @Test("HTTPS: a certificate made on first start, its fingerprint printed and served, kept for the next start; beyond loopback only HTTPS",
          .timeLimit(.minutes(1)))
    func https() async throws {
        let folder = TemporaryDirectory("serve")
        let data = folder.file("data")
        let server = try await ServeProcess(dataDir: data, arguments: ["--listen", "127.0.0.1:0", "--https"])
        #expect(server.url.hasPrefix("https://127.0.0.1:"))
        let printed = try #require(server.fingerprint)
        let port = String(server.url.split(separator: ":").last!)
        // What the server really serves, read by openssl.
        let served = try await ProcessRunner.run("/bin/sh", ["-c", "openssl s_client -connect 127.0.0.1:\(port) </dev/null 2>/dev/null | openssl x509 -noout -fingerprint -sha256"])
        #expect(served.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "sha256 Fingerprint=\(printed)")
        // The certificate names 127.0.0.1: curl verifies it against the file, no -k.
        let verified = try await ProcessRunner.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", "\(data)/web/certificate.pem", "\(server.url)/api/status"])
        #expect(verified.stdout == "401", "\(verified.stderr)")
        let mode = try FileManager.default.attributesOfItem(atPath: "\(data)/web/key.pem")[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(server.stderr.contains("Made a certificate for this machine"))
        _ = await server.stop()
        let again = try await ServeProcess(dataDir: data, arguments: ["--listen", "127.0.0.1:0", "--https"])
        #expect(again.fingerprint == printed, "the same certificate, so the phone's exception still holds")
        _ = await again.stop()
        let lan = try await ServeProcess(dataDir: data, arguments: ["--listen", "0.0.0.0:0"])
        #expect(lan.url.hasPrefix("https://") && lan.link.contains("/pair?code="))
        _ = await lan.stop()
    }

    @Test("Bad input to serve: one error line naming it, exit 64 or 1, nothing started", arguments: [
        (["--listen", "localhost:8470"], 64, "not a numeric IPv4 or IPv6 address"),
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
        let wrong = try await server.curl("POST", "/api/pair", ["-H", "Content-Type: application/json", "-d", #"{"code": "AAAAAAAAAA", "key": "\#(key.publicKey)"}"#])
        #expect(wrong.status == 403)
        let browser = try await server.pairBrowser()
        let token = browser.cookie
        #expect(try await server.curl("GET", "/api/alarms", browser.curl).status == 200)
        #expect(!server.stderr.contains(token), "the token is never logged")
        #expect(server.stderr.contains("POST /api/pair 201"))
        // The QR code under the link is the link, as a phone's camera would read it.
        let drawing = server.stderr.split(separator: "\n").filter { line in !line.isEmpty && line.allSatisfy { "█▀▄ ".contains($0) } }.joined(separator: "\n")
        #expect(try await TerminalQR.scan(drawing) == server.link)
        let devices = try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", data, "--json", "serve", "devices"])
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(devices.stdout.utf8)) as? [[String: Any]])
        #expect(listed.map { $0["name"] as? String } == ["Phone"] && !devices.stdout.contains(token))
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

    @Test("Uploads: one too large is refused before it is read, garbage as not audio; nothing is half-imported", .timeLimit(.minutes(1)))
    func uploads() async throws {
        let folder = TemporaryDirectory("serve")
        let data = folder.file("data")
        let server = try await ServeProcess(dataDir: data)
        let browser = try await server.pairBrowser()
        let large = folder.file("large.wav")
        #expect(FileManager.default.createFile(atPath: large, contents: nil))
        try FileHandle(forWritingTo: URL(fileURLWithPath: large)).truncate(atOffset: 101 * 1024 * 1024)   // sparse: 101 MB read as zeros
        let tooLarge = try await server.curl("POST", "/api/clips", browser.curl + ["-T", large])
        #expect(tooLarge.status == 413, "\(tooLarge.stderr)")
        // The same without a declared length (chunked): refused as soon as it passes the limit.
        let chunked = try await server.curl("POST", "/api/clips", browser.curl + ["-H", "Transfer-Encoding: chunked", "-T", large])
        #expect(chunked.status == 413, "\(chunked.status) \(chunked.stderr)")
        #expect(server.stderr.components(separatedBy: "POST /api/clips 413\n").count == 3, "both answered 413: \(server.stderr.suffix(400))")
        let garbage = folder.file("garbage.m4a")
        try Data(repeating: 0x5A, count: 200_000).write(to: URL(fileURLWithPath: garbage))
        let refused = try await server.curl("POST", "/api/clips?title=Garbage", browser.curl + ["--data-binary", "@\(garbage)"])
        #expect(refused.status == 422)
        let error = try #require((refused.json as? [String: Any])?["error"] as? [String: Any])
        #expect(error["code"] as? Int == 1 && (error["message"] as? String)?.isEmpty == false)
        let imported = try await server.curl("POST", "/api/clips?title=Kind", browser.curl + ["--data-binary", "@\(ProjectPaths.sampleAudio)/kind.ogg"])
        #expect(imported.status == 201)
        // A phone's player asks for byte ranges: the part asked, as the file holds it.
        let clip = try #require(imported.json as? [String: Any])
        let stored = try Data(contentsOf: URL(fileURLWithPath: try #require(clip["path"] as? String)))
        let part = folder.file("part")
        let ranged = try await ProcessRunner.run("/usr/bin/curl", ["-s", "-o", part, "-w", "%{http_code}", "-r", "100-1099"] + browser.curl + [
                                                                   "\(server.url)/api/clips/\(clip["id"] as? String ?? "")/audio"])
        #expect(ranged.stdout == "206")
        #expect(try Data(contentsOf: URL(fileURLWithPath: part)) == stored[100..<1100])
        let beyond = try await server.curl("GET", "/api/clips/\(clip["id"] as? String ?? "")/audio", browser.curl + ["-r", "\(stored.count)-", "-o", "/dev/null"])
        #expect(beyond.status == 416 && beyond.headers["content-range"] == "bytes */\(stored.count)")
        let clips = try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", data, "--json", "clip", "list"])
        #expect((try JSONSerialization.jsonObject(with: Data(clips.stdout.utf8)) as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["Kind"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(data)/uploads").isEmpty, "no upload left behind")
        _ = await server.stop()
    }

    @Test("The server killed mid-upload: the library stays whole, the daemon rings on time, the next start clears the half upload",
          .timeLimit(.minutes(2)))
    func killedMidUpload() async throws {
        let lib = try RingLibrary()
        let clip = try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav", "-q"])
        _ = try await lib.ok(["manifesto", "set", clip, "-q"])
        let id = try await lib.ok(["alarm", "add", "manifesto", "--at", "07:00", "--days", "mon", "-q"])
        let daemon = try FakeTimeDaemon(lib, fakeStart: "2027-01-04 06:59:45")
        let server = try await ServeProcess(dataDir: lib.dataDir, environment: lib.devices.environment)
        let browser = try await server.pairBrowser()
        // Six seconds of audio sent at 64 KB/s: about 16 s of upload, cut short.
        let big = lib.dir.file("long.wav")
        try await ProcessRunner.mustRun("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=f=440:d=6", "-ar", "44100", "-ac", "2", big])
        let upload = Process()
        upload.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        upload.arguments = ["-s", "-X", "POST", "--limit-rate", "64k", "-H", "Origin: \(server.url)"] + browser.curl + [
                            "--data-binary", "@\(big)", "\(server.url)/api/clips"]
        upload.standardOutput = FileHandle.nullDevice
        upload.standardError = FileHandle.nullDevice
        try upload.run()
        let uploads = "\(lib.dataDir)/uploads"
        for _ in 0..<100 where ((try? FileManager.default.contentsOfDirectory(atPath: uploads)) ?? []).isEmpty { await pause(0.05) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: uploads).count == 1, "the upload is arriving")
        await server.kill()
        _ = await upload.ended()
        #expect(upload.terminationStatus != 0, "the client saw the server go")
        #expect(await daemon.waitForEvent("stopped alarm \(id)"), "the daemon rings without the server")
        let (status, stderr) = await daemon.stop()
        #expect(status == 0, "\(stderr)")
        #expect(stderr.contains("Ringing alarm \(id) (due 2027-01-04T07:00:00+00:00)"))
        let clips = try await lib.ok(["clip", "list", "--json"])
        #expect((try JSONSerialization.jsonObject(with: Data(clips.utf8)) as? [[String: Any]])?.count == 1, "nothing half-imported")
        let restarted = try await ServeProcess(dataDir: lib.dataDir, environment: lib.devices.environment)
        #expect(try FileManager.default.contentsOfDirectory(atPath: uploads).isEmpty, "the half upload is gone")
        _ = await restarted.stop()
    }

    @Test("Idle and half-sent connections do not hold the server: others are answered at once", .timeLimit(.minutes(1)))
    func slowClients() async throws {
        let folder = TemporaryDirectory("serve")
        let server = try await ServeProcess(dataDir: folder.file("data"))
        let port = String(server.url.split(separator: ":").last!)
        // Eight connections that say nothing, and four that start a request and stop mid-header or mid-body.
        let holders = try await ProcessRunner.run(ProjectPaths.python, ["-c", """
            import socket, sys, time, urllib.request
            held = []
            for i in range(12):
                s = socket.create_connection(("127.0.0.1", \(port)))
                if i >= 8:
                    s.sendall(b"POST /api/clips HTTP/1.1\\r\\nHost: x\\r\\nContent-Length: 1000000\\r\\n" + (b"\\r\\nabc" if i % 2 else b""))
                held.append(s)
            started = time.time()
            try:
                urllib.request.urlopen("http://127.0.0.1:\(port)/pair", timeout=5).read()
            except Exception as error:
                print("failed", error); sys.exit(1)
            print(round(time.time() - started, 3))
            """])
        #expect(holders.status == 0, "\(holders.stdout) \(holders.stderr)")
        #expect((Double(holders.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 99) < 2, "answered while twelve connections hang: \(holders.stdout)")
        _ = await server.stop()
    }

    @Test("Malformed requests get a 4xx (an error object from the API) or a closed connection, never a crash", .timeLimit(.minutes(1)))
    func malformedRequests() async throws {
        let folder = TemporaryDirectory("serve")
        let server = try await ServeProcess(dataDir: folder.file("data"))
        let port = String(server.url.split(separator: ":").last!)
        let probe = try await ProcessRunner.run(ProjectPaths.python, ["-c", """
            import json, random, socket
            port = \(port)
            origin = ("Origin: http://127.0.0.1:%d\\r\\n" % port).encode()
            host = ("127.0.0.1:%d" % port).encode()
            requests = [
                b"GARBAGE\\r\\n\\r\\n",
                b"GET /api/alarms HTTP/1.1\\r\\nHost: h\\r\\nCookie: " + b"A" * 200000 + b"\\r\\n\\r\\n",
                b"POST /api/alarms HTTP/1.1\\r\\nHost: h\\r\\nContent-Length: -5\\r\\n\\r\\n",
                b"GET /%ZZ%00/../api HTTP/1.1\\r\\nHost: " + host + b"\\r\\n\\r\\n",
                b"POST /api/pair HTTP/1.1\\r\\nHost: 127.0.0.1:%d\\r\\n" % port + origin + b"Content-Length: 4\\r\\n\\r\\n\\xff\\xfe\\x00{",
                b"POST /api/pair HTTP/1.1\\r\\nHost: 127.0.0.1:%d\\r\\n" % port + origin + b"Transfer-Encoding: chunked\\r\\n\\r\\nZZZ\\r\\nabc\\r\\n",
                b"GET /api/alarms HTTP/9.9\\r\\nHost: h\\r\\n\\r\\n",
                b"DELETE /api/alarms/%00%00 HTTP/1.1\\r\\nHost: " + host + b"\\r\\n\\r\\n",
            ]
            generator = random.Random(20261202)
            requests += [bytes(generator.getrandbits(8) for _ in range(generator.randint(1, 3000))) for _ in range(40)]
            statuses = []
            for request in requests:
                s = socket.create_connection(("127.0.0.1", port), timeout=10)
                try:
                    s.sendall(request)
                    s.shutdown(socket.SHUT_WR)
                    answer = b""
                    while True:
                        piece = s.recv(65536)
                        if not piece: break
                        answer += piece
                except OSError:
                    answer = b""
                s.close()
                if answer.startswith(b"HTTP/"):
                    status = int(answer.split(b" ")[1])
                    head, _, body = answer.partition(b"\\r\\n\\r\\n")
                    # A request the application read answers with the error object; one malformed
                    # before a route is read (framing, header size, HTTP version) with libmicrohttpd's own page.
                    error = b"application/json" in head and "message" in json.loads(body)["error"]
                    statuses.append([status, error])
                else:
                    statuses.append([0, False])
            print(json.dumps(statuses))
            """])
        #expect(probe.status == 0, "\(probe.stderr)")
        let answers = try #require(try JSONSerialization.jsonObject(with: probe.stdoutData) as? [[Any]])
        let statuses = answers.compactMap { $0.first as? Int }
        #expect(statuses.count == answers.count && statuses.allSatisfy { $0 == 0 || (400..<500).contains($0) || $0 == 505 }, "\(statuses)")
        // What reached the application: a path no route has, JSON that is not JSON, a NUL cutting the path.
        for (index, status) in [(3, 404), (4, 400), (7, 405)] {
            #expect(statuses[index] == status && answers[index].last as? Bool == true, "request \(index): \(answers[index])")
        }
        #expect(statuses[1] == 431 && statuses[2] == 400 && statuses[6] == 505, "libmicrohttpd's own refusals: \(statuses)")
        #expect(server.process.isRunning)
        #expect(try await server.curl("GET", "/pair").status == 200, "still answering")
        _ = await server.stop()
    }

    @Test("A recording over 10 minutes is refused from its header; nothing is imported", .timeLimit(.minutes(1)))
    func tenMinutes() async throws {
        let folder = TemporaryDirectory("serve")
        let server = try await ServeProcess(dataDir: folder.file("data"))
        let browser = try await server.pairBrowser()
        let long = folder.file("long.wav")
        try await ProcessRunner.mustRun("/usr/bin/sox", ["-n", "-r", "8000", "-c", "1", long, "synth", "601", "sine", "440", "vol", "0.3"])
        let refused = try await server.curl("POST", "/api/clips", browser.curl + ["--data-binary", "@\(long)"])
        #expect(refused.status == 422)
        let message = ((refused.json as? [String: Any])?["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(message.contains("10 minutes"), "\(message)")
        let clips = try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", folder.file("data"), "--json", "clip", "list"])
        #expect(clips.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        _ = await server.stop()
    }

    @Test("Through the real server: every route refuses a request without a device, and a paired browser's change from another site", .timeLimit(.minutes(1)))
    func refusals() async throws {
        let folder = TemporaryDirectory("serve")
        let server = try await ServeProcess(dataDir: folder.file("data"))
        var refused: [String] = []
        for (method, path) in GuardedRoutes.all {
            let answer = try await server.curl(method, path)
            if answer.status == (path.hasPrefix("/api") ? 401 : 303) { refused.append(path) } else { Issue.record("\(method) \(path): \(answer.status)") }
        }
        #expect(refused.count == GuardedRoutes.all.count)
        let browser = try await server.pairBrowser()
        let forged = try await ProcessRunner.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", "-H", "Origin: https://evil.example",
                                                                   ] + browser.curl + ["\(server.url)/api/stop"])
        #expect(forged.stdout == "403")
        _ = await server.stop()
    }

    @Test("Stop from the phone ends the ring at once while a command holds the library", .timeLimit(.minutes(1)))
    func stopWhileLibraryIsBusy() async throws {
        let lib = try RingLibrary()
        let id = try await lib.alarm()
        let server = try await ServeProcess(dataDir: lib.dataDir, environment: lib.devices.environment)
        let token = try await lib.ok(["token", "create", "script"])
        let reader = PacedReader(lib.devices.fifo)
        defer { withExtendedLifetime(reader) {} }   // the 'slow' device's pipe is read for the whole test
        let ring = Process()
        ring.executableURL = URL(fileURLWithPath: ProjectPaths.binary)
        ring.arguments = ["--data-dir", lib.dataDir, "ring", id, "--device", "slow", "--max-seconds", "60", "-q"]
        ring.environment = lib.devices.environment
        ring.standardOutput = FileHandle.nullDevice
        ring.standardError = FileHandle.nullDevice
        try ring.run()
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: "\(lib.dataDir)/ringing/\(id).pid") { await pause(0.01) }
        // Another process holds a write transaction for five seconds (a long rebuild, say).
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: ProjectPaths.python)
        holder.arguments = ["-c", "import sqlite3, sys, time; c = sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('BEGIN IMMEDIATE'); print('held', flush=True); time.sleep(5)", "\(lib.dataDir)/voicealarm.sqlite"]
        let held = Pipe()
        holder.standardOutput = held
        try holder.run()
        _ = await held.fileHandleForReading.text(within: 10) { $0.contains("held") }
        let started = Date()
        async let answer = server.curl("POST", "/api/stop", ["-H", "Authorization: Bearer \(token)"], origin: false)
        _ = await ring.ended()
        let took = Date().timeIntervalSince(started)
        #expect(took < 2, "the ring ended \(took) s after Stop, while the library was held")
        let stop = try await answer
        #expect(stop.status == 200 && (stop.json as? [String: Any])?["stopped"] as? [String] == [id], "\(stop.body)")
        _ = await holder.ended()
        _ = await server.stop()
    }

    @Test("serve --no-pairing (a service's way) prints no code, and says how to get one", .timeLimit(.minutes(1)))
    func noPairing() async throws {
        let folder = TemporaryDirectory("serve")
        let server = try await ServeProcess(dataDir: folder.file("data"), arguments: ["--listen", "127.0.0.1:0", "--no-pairing"])
        #expect(server.document["pairing"] is NSNull)
        await pause(0.2)
        #expect(!server.stderr.contains("code=") && server.stderr.contains("'voicealarm serve pair' prints a pairing link"))
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
        let server = try await ServeProcess(dataDir: data, arguments: ["--listen", "127.0.0.1:0", "--no-pairing", "--scheduler", "systemd", "--unit-dir", units])
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
}
