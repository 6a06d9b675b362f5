import Foundation
import TestSupport
import Testing

/// The web page attacked as issue 30 found it could be, through the real server and real tools:
/// Chromium as the owner's browser, another local account's server (`runuser`), Python sockets,
/// openssl and curl. Each test of a running server runs while the daemon, on a fake clock, rings an alarm: the
/// attacks never come between the person and the ring.
@Suite("The web page under attack")
struct WebAttackTests {
    @Test(
        "Another account's page on another port tosses a cookie for our host: the owner's page still opens, and no cookie opens anything",
        .timeLimit(.minutes(2)))
    func tossedCookie() async throws {
        let siege = try await Siege(lead: 20)
        let server = try await ServeProcess(dataDir: siege.lib.dataDir, environment: siege.lib.devices.environment)
        let profile = siege.lib.dir.file("profile")
        try await Self.browse("pair", profile, server.link, trusting: server)
        let attacker = try await Attacker(port: 0, in: siege.lib.dir.file("attacker"))
        try await Self.browse("visit", profile, "http://127.0.0.1:\(attacker.port)/", trusting: server)
        #expect(attacker.cookie == "tossed-by-another-port", "the other port's page set its cookie, and the browser sends it for the host: \(attacker.entries)")
        // The page sends the tossed cookie to our port too; it must not stand between the owner and the alarms.
        try await Self.browse("app", profile, server.url + "/", trusting: server)
        let token = try await siege.lib.ok(["token", "create", "script"])
        for cookie in ["voicealarm_device=tossed-by-another-port", "voicealarm_device=\(token)"] {
            let list = try await server.curl("GET", "/api/alarms", ["-b", cookie])
            #expect(list.status == 401, "a cookie opens nothing: \(list.status) \(list.body)")
        }
        let pairing = try JSONSerialization.jsonObject(with: Data(try await siege.lib.ok(["--json", "serve", "pair"]).utf8)) as? [String: Any]
        let paired = try await server.pairBrowser(code: try #require(pairing?["code"] as? String))
        let listed = try await server.curl("GET", "/api/alarms", paired.curl)
        #expect(listed.status == 200 && listed.headers["set-cookie"] == nil, "a key's session lists the alarms; no cookie is set")
        await attacker.stop()
        try await siege.rang()
        _ = await server.stop()
    }

    @Test(
        "Another account on our port while serve is down cannot present our origin: the browser refuses its page, self-made certificate or none",
        .timeLimit(.minutes(2)))
    func portTakenWhileDown() async throws {
        let siege = try await Siege(lead: 30)
        var server = try await ServeProcess(dataDir: siege.lib.dataDir, environment: siege.lib.devices.environment)
        let port = server.port
        let profile = siege.lib.dir.file("profile")
        try await Self.browse("pair", profile, server.link, trusting: server)
        _ = await server.stop()
        for tls in [true, false] {
            let attacker = try await Attacker(port: port, in: siege.lib.dir.file("attacker-\(tls)"), selfMadeTLS: tls)
            try await Self.browse("refused", profile, "https://127.0.0.1:\(port)/", trusting: server)
            #expect(!attacker.wasVisited, "no page, script or worker of the squatter ran in our origin (TLS \(tls)): \(attacker.entries)")
            #expect(attacker.keyReport == nil)
            await attacker.stop()
        }
        server = try await ServeProcess(
            dataDir: siege.lib.dataDir, arguments: ["--listen", "127.0.0.1:\(port)", "--no-pairing"],
            environment: siege.lib.devices.environment)
        // The owner's page works again, with the key nobody else could use.
        try await Self.browse("app", profile, server.url + "/", trusting: server)
        try await siege.rang()
        _ = await server.stop()
    }

    @Test(
        "At the machine's LAN name, over HTTPS Chromium verifies (no loopback exception): paired, its worker in control, installable",
        .timeLimit(.minutes(2)))
    func installableOnTheLAN() async throws {
        let siege = try await Siege(lead: 20)
        let server = try await ServeProcess(dataDir: siege.lib.dataDir, arguments: ["--listen", "[::]:0"], environment: siege.lib.devices.environment)
        let host = try await ProcessRunner.run("/bin/hostname", []).stdout.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let name = "\(host.split(separator: ".").first ?? "").local"
        let page = "https://\(name):\(server.port)"
        let profile = siege.lib.dir.file("profile")
        try await Self.browse("pair", profile, "\(page)/pair?code=\(server.code)", trusting: server, name: name)
        try await Self.browse("installable", profile, "\(page)/", trusting: server, name: name)
        try await siege.rang()
        _ = await server.stop()
    }

    @Test(
        "A service worker of any other path (one a squatter's page registered) is answered with one that removes itself, in Chromium",
        .timeLimit(.minutes(2)))
    func foreignWorker() async throws {
        let siege = try await Siege(lead: 15)
        let server = try await ServeProcess(dataDir: siege.lib.dataDir, environment: siege.lib.devices.environment)
        let profile = siege.lib.dir.file("profile")
        try await Self.browse("pair", profile, server.link, trusting: server)
        try await Self.browse("worker", profile, server.url + "/", trusting: server)
        let script = try await server.curl("GET", "/any/worker.js", ["-H", "Service-Worker: script"])
        #expect(script.status == 200 && script.body.contains("registration.unregister()"), "\(script.status)")
        #expect(try await server.curl("GET", "/any/worker.js").status == 404, "an ordinary request for it is a 404")
        // At a path of the page's own too: a worker registered as /app.mjs by whoever held the origin.
        let ownPath = try await server.curl("GET", "/app.mjs", ["-H", "Service-Worker: script"])
        #expect(ownPath.body.contains("registration.unregister()"), "\(ownPath.status)")
        #expect(try await server.curl("GET", "/sw.js", ["-H", "Service-Worker: script"]).body.contains("voicealarm-shell"), "ours stays ours")
        try await siege.rang()
        _ = await server.stop()
    }

    @Test(
        "Slow heads from the owner's address and four others cannot lock out Status and Stop; each is cut within seconds",
        .timeLimit(.minutes(2)))
    func slowHeads() async throws {
        let siege = try await Siege(lead: 8)
        let server = try await ServeProcess(dataDir: siege.lib.dataDir, environment: siege.lib.devices.environment)
        let token = try await siege.lib.ok(["token", "create", "phone"])
        let port = String(server.url.split(separator: ":").last!)
        // 16 connections from 127.0.0.1 and 16 from each of 127.0.0.2–5, each sending one header
        // line a second and opening again when cut; meanwhile the owner asks Status and Stop.
        let probe = try await ProcessRunner.run(
            ProjectPaths.python,
            [
                "-c",
                """
                import json, socket, ssl, threading, time, urllib.request
                port, token = \(port), "\(token)"
                tls = ssl.create_default_context(cafile="\(server.authorityFile)")
                until = time.time() + 14
                cuts = []
                def slow(address, again=True):
                    while time.time() < until:
                        s = socket.socket(); s.bind((address, 0)); s.connect(("127.0.0.1", port))
                        opened = time.time()
                        try:
                            s = tls.wrap_socket(s, server_hostname="127.0.0.1")
                            s.sendall(b"GET /api/status HTTP/1.1\\r\\nHost: 127.0.0.1:%d\\r\\n" % port)
                            while time.time() < until:
                                time.sleep(1)
                                s.sendall(b"X-Slow: 1\\r\\n")
                        except OSError:
                            cuts.append(round(time.time() - opened, 2))
                        s.close()
                threads = [threading.Thread(target=slow, args=("127.0.0.%d" % (1 + i // 16),)) for i in range(80)]
                for t in threads: t.start()
                time.sleep(2)
                owner = []
                for i in range(10):
                    for method, path in (("GET", "/api/status"), ("POST", "/api/stop")):
                        started = time.time()
                        request = urllib.request.Request("https://127.0.0.1:%d%s" % (port, path), method=method, headers={"Authorization": "Bearer " + token})
                        try:
                            status = urllib.request.urlopen(request, timeout=5, context=tls).status
                        except Exception as error:
                            status = repr(error)
                        owner.append([method, status, round(time.time() - started, 3)])
                    time.sleep(0.8)
                for t in threads: t.join()
                print(json.dumps({"owner": owner, "cuts": cuts}))
                """,
            ])
        #expect(probe.status == 0, "\(probe.stderr)")
        let result = try #require(try JSONSerialization.jsonObject(with: probe.stdoutData) as? [String: Any])
        let owner = result["owner"] as? [[Any]] ?? []
        #expect(owner.count == 20 && owner.allSatisfy { $0[1] as? Int == 200 }, "the owner was answered every time: \(owner)")
        // Each of the owner's requests is a new TLS connection among 80 handshaking attackers.
        #expect(owner.compactMap { $0[2] as? Double }.max() ?? 99 < 3, "and at once: \(owner)")
        let cuts = result["cuts"] as? [Double] ?? []
        #expect(cuts.count >= 80 && cuts.allSatisfy { $0 < 8 }, "every slow head was cut within the deadline: \(cuts.count) cuts, longest \(cuts.max() ?? 0) s")
        try await siege.rang()
        _ = await server.stop()
    }

    @Test(
        "Slow readers of the icon from the owner's address and four others cannot lock out Status and Stop; each is cut by its answer's deadline",
        .timeLimit(.minutes(2)))
    func slowReaders() async throws {
        let siege = try await Siege(lead: 10)
        let server = try await ServeProcess(dataDir: siege.lib.dataDir, environment: siege.lib.devices.environment)
        let token = try await siege.lib.ok(["token", "create", "phone"])
        let port = String(server.url.split(separator: ":").last!)
        // 200 connections from 127.0.0.1 and 30 from each of 127.0.0.2–5 (320, past the server's
        // 256), each with whole heads of 8 pipelined GETs of the 263 KB icon and a 4 KB receive
        // buffer, then reading 1 KB every 8 s; a connection the server cuts opens again 2 s
        // later, for 20 s. Four more from 127.0.0.6, too few to crowd anyone out, open once: only
        // their answer's deadline cuts them, 5 s plus its size at 32 KiB/s (the server's
        // defaults). A cut shows as the socket leaving ESTABLISHED (TCP_INFO).
        // make test: 40 from 127.0.0.1 and 8 from each of the others (72: five times an
        // address's limit, half again the limit in all), so the suite's other tests keep their
        // cores; make test-full: the 320 the flood was found with.
        let (own, each) = (TestScope.count(200, quick: 40), TestScope.count(30, quick: 8))
        let probe = try await ProcessRunner.run(
            ProjectPaths.python,
            [
                "-c",
                """
                import json, socket, ssl, struct, threading, time, urllib.request
                port, token = \(port), "\(token)"
                tls = ssl.create_default_context(cafile="\(server.authorityFile)")
                # The first answer of the icon draws it (a debug build on a busy machine: seconds).
                size = len(urllib.request.urlopen("https://127.0.0.1:%d/icon-512.png" % port, timeout=60, context=tls).read())
                deadline = 5 + size / 32768
                until = time.time() + 20
                cuts, held, timed, lock = [], [], [], threading.Lock()
                head = b"GET /icon-512.png HTTP/1.1\\r\\nHost: 127.0.0.1:%d\\r\\n\\r\\n" % port
                def state(s):
                    return s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)[0]
                def slow(address, again=True):
                    while time.time() < until:
                        s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                        s.bind((address, 0)); s.connect(("127.0.0.1", port))
                        opened = time.time(); read = opened
                        try:
                            s = tls.wrap_socket(s, server_hostname="127.0.0.1")
                            s.sendall(head * 8)
                            while time.time() < until and state(s) == 1:
                                time.sleep(0.2)
                                if time.time() - read >= 8:
                                    s.recv(1024); read = time.time()
                            with lock:
                                (held if state(s) == 1 else cuts if again else timed).append(round(time.time() - opened, 2))
                        except OSError:
                            with lock: (cuts if again else timed).append(round(time.time() - opened, 2))
                        s.close()
                        if not again: return
                        time.sleep(2)
                addresses = ["127.0.0.1"] * \(own) + ["127.0.0.%d" % (2 + i // \(each)) for i in range(4 * \(each))]
                threads = [threading.Thread(target=slow, args=(a,)) for a in addresses]
                threads += [threading.Thread(target=slow, args=("127.0.0.6", False)) for _ in range(4)]
                for t in threads: t.start()
                time.sleep(2)
                owner = []
                for i in range(10):
                    for method, path in (("GET", "/api/status"), ("POST", "/api/stop")):
                        started = time.time()
                        request = urllib.request.Request("https://127.0.0.1:%d%s" % (port, path), method=method, headers={"Authorization": "Bearer " + token})
                        try:
                            status = urllib.request.urlopen(request, timeout=5, context=tls).status
                        except Exception as error:
                            status = repr(error)
                        owner.append([method, status, round(time.time() - started, 3)])
                    time.sleep(0.8)
                for t in threads: t.join()
                print(json.dumps({"owner": owner, "cuts": cuts, "held": held, "timed": timed, "deadline": deadline}))
                """,
            ])
        #expect(probe.status == 0, "\(probe.stderr)")
        let result = try #require(try JSONSerialization.jsonObject(with: probe.stdoutData) as? [String: Any])
        let owner = result["owner"] as? [[Any]] ?? []
        #expect(owner.count == 20 && owner.allSatisfy { $0[1] as? Int == 200 }, "the owner was answered every time: \(owner)")
        // Each of the owner's requests is a new TLS connection among handshaking readers.
        #expect(owner.compactMap { $0[2] as? Double }.max() ?? 99 < 3, "and at once: \(owner)")
        // Cut within 3 s of its deadline: the deadlines are checked twice a second, and on a busy
        // machine a TLS handshake puts off the answer's start, from which the deadline counts.
        let deadline = try #require(result["deadline"] as? Double)
        let cuts = result["cuts"] as? [Double] ?? []
        let held = result["held"] as? [Double] ?? []
        #expect(
            cuts.count >= own + 4 * each && cuts.allSatisfy { $0 < deadline + 3 },
            "every slow reader was cut within its answer's deadline (\(deadline) s): \(cuts.count) cuts, longest \(cuts.max() ?? 0) s")
        #expect(held.allSatisfy { $0 < deadline + 3 }, "none held on past it: longest \(held.max() ?? 0) s of \(held.count)")
        let timed = result["timed"] as? [Double] ?? []
        #expect(
            timed.count == 4 && timed.allSatisfy { $0 > deadline - 1 && $0 < deadline + 3 },
            "readers too few to be crowded out are cut by their answer's deadline: \(timed)")
        try await siege.rang()
        _ = await server.stop()
    }

    @Test(
        "Wrong codes from six addresses a minute never refuse the owner's right code; the guessers get 429",
        .timeLimit(.minutes(1)))
    func pairingFlood() async throws {
        let siege = try await Siege(lead: 6)
        let server = try await ServeProcess(dataDir: siege.lib.dataDir, environment: siege.lib.devices.environment)
        let port = String(server.url.split(separator: ":").last!)
        let key = try await BrowserKey.make(in: siege.lib.dir.path)
        let probe = try await ProcessRunner.run(
            ProjectPaths.python,
            [
                "-c",
                """
                import http.client, json, ssl
                port, key = \(port), "\(key.publicKey)"
                tls = ssl.create_default_context(cafile="\(server.authorityFile)")
                statuses = []
                for address in range(2, 8):
                    for guess in range(6):
                        connection = http.client.HTTPSConnection("127.0.0.1", port, timeout=5, source_address=("127.0.0.%d" % address, 0), context=tls)
                        body = json.dumps({"code": "WRONG%d%dAAAA" % (address, guess), "key": key})
                        connection.request("POST", "/api/pair", body=body, headers={"Content-Type": "application/json", "Origin": "https://127.0.0.1:%d" % port})
                        statuses.append(connection.getresponse().status)
                        connection.close()
                print(json.dumps(statuses))
                """,
            ])
        let statuses = try #require(try JSONSerialization.jsonObject(with: probe.stdoutData) as? [Int], "\(probe.stderr)")
        #expect(statuses.count == 36 && statuses.allSatisfy { $0 == 403 || $0 == 429 } && statuses.contains(429), "\(statuses)")
        let owner = try await server.pairBrowser()
        #expect(!owner.session.isEmpty, "the owner's right code paired while the guessers were refused")
        try await siege.rang()
        _ = await server.stop()
    }

    @Test(
        "HTTPS speaks TLS 1.2 and 1.3 with AEAD suites only: TLS 1.0, 1.1 and CBC with SHA-1 are refused (openssl s_client)",
        .timeLimit(.minutes(1)))
    func tlsVersions() async throws {
        let siege = try await Siege(lead: 5)
        let server = try await ServeProcess(
            dataDir: siege.lib.dataDir, arguments: ["--listen", "127.0.0.1:0", "--no-pairing"],
            environment: siege.lib.devices.environment)
        let port = String(server.url.split(separator: ":").last!)
        func handshake(_ arguments: [String]) async throws -> String {
            // SECLEVEL=0: the client offers what an old one would; the server must be the one to refuse.
            let result = try await ProcessRunner.run(
                "/bin/sh", ["-c", "openssl s_client -connect 127.0.0.1:\(port) \(arguments.joined(separator: " ")) </dev/null 2>&1"])
            return result.stdout.split(separator: "\n").first { $0.hasPrefix("New, ") }.map(String.init) ?? result.stdout
        }
        #expect(try await handshake(["-tls1", "-cipher", "'DEFAULT:@SECLEVEL=0'"]) == "New, (NONE), Cipher is (NONE)")
        #expect(try await handshake(["-tls1_1", "-cipher", "'DEFAULT:@SECLEVEL=0'"]) == "New, (NONE), Cipher is (NONE)")
        #expect(
            try await handshake(["-tls1_2", "-cipher", "'ECDHE-ECDSA-AES128-SHA:ECDHE-RSA-AES128-SHA:AES128-SHA:@SECLEVEL=0'"])
                == "New, (NONE), Cipher is (NONE)")
        let twelve = try await handshake(["-tls1_2"])
        #expect(twelve.hasPrefix("New, TLSv1.2, Cipher is ECDHE-") && (twelve.contains("GCM") || twelve.contains("CHACHA20")), "\(twelve)")
        #expect(try await handshake(["-tls1_3"]).hasPrefix("New, TLSv1.3, Cipher is TLS_"))
        try await siege.rang()
        _ = await server.stop()
    }

    @Test(
        "A foreign Host (DNS rebinding) finds nothing, even with a paired device; a 100 KB path is answered and logged bounded; a 416 keeps its headers",
        .timeLimit(.minutes(1)))
    func requestsThatAreNotOurs() async throws {
        let siege = try await Siege(lead: 6)
        let server = try await ServeProcess(dataDir: siege.lib.dataDir, environment: siege.lib.devices.environment)
        // A script's token: what is checked here comes before whoever asks.
        let token = try await siege.lib.ok(["token", "create", "phone"])
        let credential = ["-H", "Authorization: Bearer \(token)"]
        for host in ["evil.example", "evil.example:\(server.url.split(separator: ":").last!)", "127.0.0.1:1"] {
            let rebound = try await server.curl("GET", "/api/alarms", credential + ["-H", "Host: \(host)"])
            #expect(rebound.status == 421, "Host \(host): \(rebound.status)")
            #expect(try await server.curl("GET", "/pair", ["-H", "Host: \(host)"]).status == 421, "not even the pairing page")
        }
        let ours = try await server.curl("GET", "/api/alarms", credential)
        #expect(ours.status == 200)
        // Every answer the application makes carries the security headers: a 416 and a refusal too.
        let clip = try #require(
            (try JSONSerialization.jsonObject(with: Data(try await siege.lib.ok(["clip", "list", "--json"]).utf8)) as? [[String: Any]])?.first?["id"] as? String
        )
        let beyond = try await server.curl("GET", "/api/clips/\(clip)/audio", credential + ["-r", "99999999-", "-o", "/dev/null"])
        let refused = try await server.curl("GET", "/api/alarms")
        for answer in [beyond, refused] {
            for header in ["content-security-policy", "x-content-type-options", "x-frame-options", "referrer-policy", "cache-control"] {
                #expect(answer.headers[header] != nil, "\(answer.status) without \(header)")
            }
        }
        #expect(beyond.status == 416 && refused.status == 401)
        #expect(refused.headers["connection"]?.lowercased() == "close", "a refusal holds no connection open")
        // A path of 100 KB is answered, and what reaches the log is bounded and escaped.
        let long = String(repeating: "%0A", count: 30_000)
        let huge = try await server.curl("GET", "/\(long)")
        #expect(huge.status == 404 || huge.status == 414 || huge.status == 431, "\(huge.status)")
        await pause(0.2)
        #expect(
            !server.stderr.contains(String(repeating: "%0A", count: 1000)) && !server.stderr.contains("\n\n\n\n"),
            "the log holds no 100 KB line and no newline from a path")
        try await siege.rang()
        _ = await server.stop()
    }

    /// Runs `web_attack.py` in a browser that trusts `server`'s authority (and resolves `name`
    /// to loopback, as a LAN's DNS would resolve it to the machine); fails the test when the
    /// browser did not get as far.
    private static func browse(_ scenario: String, _ profile: String, _ url: String, trusting server: ServeProcess, name: String? = nil) async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["AUTHORITY"] = server.authorityFile
        let result = try await ProcessRunner.run(
            ProjectPaths.python, ["\(ProjectPaths.root)/Tests/Support/web_attack.py", scenario, profile, url] + (name.map { [$0] } ?? []),
            environment: environment)
        let document = try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any]
        #expect(document?["ok"] as? Bool == true, "\(scenario) \(url): \(result.stdout) \(result.stderr.suffix(400))")
    }
}
