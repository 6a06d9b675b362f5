import Foundation
import TestSupport
import Testing

/// Requests the real server must survive or refuse: idle and half-sent, malformed, unpaired, and Stop while the library is held.
@Suite("voicealarm serve: requests")
struct ServeRequestTests {
    @Test("Idle and half-sent connections do not hold the server: others are answered at once", .timeLimit(.minutes(1)))
    func slowClients() async throws {
        let folder = TemporaryDirectory("serve")
        let server = try await ServeProcess(dataDir: folder.file("data"))
        let port = String(server.url.split(separator: ":").last!)
        // Eight connections that say nothing, and four that start a request and stop mid-header or mid-body.
        let holders = try await ProcessRunner.run(
            ProjectPaths.python,
            [
                "-c",
                """
                import socket, ssl, sys, time, urllib.request
                held = []
                for i in range(12):
                    s = socket.create_connection(("127.0.0.1", \(port)))
                    if i >= 8:
                        s.sendall(b"POST /api/clips HTTP/1.1\\r\\nHost: x\\r\\nContent-Length: 1000000\\r\\n" + (b"\\r\\nabc" if i % 2 else b""))
                    held.append(s)
                started = time.time()
                try:
                    tls = ssl.create_default_context(cafile="\(server.authorityFile)")
                    urllib.request.urlopen("https://127.0.0.1:\(port)/pair", timeout=5, context=tls).read()
                except Exception as error:
                    print("failed", error); sys.exit(1)
                print(round(time.time() - started, 3))
                """,
            ])
        #expect(holders.status == 0, "\(holders.stdout) \(holders.stderr)")
        #expect((Double(holders.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 99) < 2, "answered while twelve connections hang: \(holders.stdout)")
        _ = await server.stop()
    }

    @Test("Malformed requests get a 4xx (an error object from the API) or a closed connection, never a crash", .timeLimit(.minutes(1)))
    func malformedRequests() async throws {
        let folder = TemporaryDirectory("serve")
        let server = try await ServeProcess(dataDir: folder.file("data"))
        let port = String(server.url.split(separator: ":").last!)
        let probe = try await ProcessRunner.run(
            ProjectPaths.python,
            [
                "-c",
                """
                import json, random, socket, ssl, threading
                port = \(port)
                tls = ssl.create_default_context(cafile="\(server.authorityFile)")
                origin = ("Origin: https://127.0.0.1:%d\\r\\n" % port).encode()
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
                statuses = [None] * len(requests)
                # Over TLS there is no half-close to end a request: each answer is read until the
                # server closes (a refusal closes its connection; an unfinished head is cut at its
                # deadline). The random ones at once, each from an address of its own.
                def exchange(index, source):
                    answer = b""
                    try:
                        s = tls.wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0)), server_hostname="127.0.0.1")
                        s.sendall(requests[index])
                        while True:
                            piece = s.recv(65536)
                            if not piece: break
                            answer += piece
                        s.close()
                    except (OSError, ssl.SSLError):
                        pass
                    statuses[index] = answer
                for index in range(8):
                    exchange(index, "127.0.0.1")
                threads = [threading.Thread(target=exchange, args=(index, "127.0.%d.%d" % (1 + index // 200, 2 + index % 200))) for index in range(8, len(requests))]
                for thread in threads: thread.start()
                for thread in threads: thread.join()
                answers, statuses = statuses, []
                for answer in answers:
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
                """,
            ])
        #expect(probe.status == 0, "\(probe.stderr)")
        let answers = try #require(try JSONSerialization.jsonObject(with: probe.stdoutData) as? [[Any]])
        let statuses = answers.compactMap { $0.first as? Int }
        #expect(statuses.count == answers.count && statuses.allSatisfy { $0 == 0 || (400..<500).contains($0) || $0 == 505 }, "\(statuses)")
        // What reached the application: a path no route has, JSON that is not JSON, and "%00%00",
        // decoded only after the path is split (it cuts nothing): a route, refused without our Origin.
        for (index, status) in [(3, 404), (4, 400), (7, 403)] {
            #expect(statuses[index] == status && answers[index].last as? Bool == true, "request \(index): \(answers[index])")
        }
        #expect(statuses[1] == 431 && statuses[2] == 400 && statuses[6] == 505, "libmicrohttpd's own refusals: \(statuses)")
        #expect(server.process.isRunning)
        #expect(try await server.curl("GET", "/pair").status == 200, "still answering")
        _ = await server.stop()
    }

    @Test("Through the real server: every route refuses a request without a device, and a paired browser's change from another site", .timeLimit(.minutes(1)))
    func refusals() async throws {
        let folder = TemporaryDirectory("serve")
        let server = try await ServeProcess(dataDir: folder.file("data"))
        var refused: [String] = []
        for (method, path) in GuardedRoutes.all {
            let answer = try await server.curl(method, path)
            if answer.status == 401 { refused.append(path) } else { Issue.record("\(method) \(path): \(answer.status)") }
        }
        #expect(refused.count == GuardedRoutes.all.count)
        let browser = try await server.pairBrowser()
        let forged = try await ProcessRunner.run(
            "/usr/bin/curl",
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", server.authorityFile, "-X", "POST", "-H", "Origin: https://evil.example",
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
        defer { withExtendedLifetime(reader) {} }  // the 'slow' device's pipe is read for the whole test
        let ring = Process()
        ring.executableURL = URL(fileURLWithPath: ProjectPaths.binary)
        ring.arguments = ["--data-dir", lib.dataDir, "ring", id, "--device", "slow", "--max-seconds", "60", "-q"]
        ring.environment = lib.devices.environment
        ring.standardOutput = FileHandle.nullDevice
        ring.standardError = FileHandle.nullDevice
        try ring.run()
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: "\(lib.dataDir)/ringing/\(id).pid") { await pause(0.01) }
        // Another process holds a write transaction for eight seconds (a long rebuild, say).
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: ProjectPaths.python)
        holder.arguments = [
            "-c",
            "import sqlite3, sys, time; c = sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('BEGIN IMMEDIATE'); print('held', flush=True); time.sleep(8)",
            "\(lib.dataDir)/voicealarm.sqlite",
        ]
        let held = Pipe()
        holder.standardOutput = held
        try holder.run()
        _ = await held.fileHandleForReading.text(within: 10) { $0.contains("held") }
        let started = Date()
        async let answer = server.curl("POST", "/api/stop", ["-H", "Authorization: Bearer \(token)"], origin: false)
        _ = await ring.ended()
        // What matters is that Stop does not wait for the library: the ring is over while the
        // lock is still held (a wall-clock bound would measure the machine's load instead).
        #expect(holder.isRunning, "the ring ended \(Date().timeIntervalSince(started)) s after Stop, only once the library was free")
        let stop = try await answer
        #expect(stop.status == 200 && (stop.json as? [String: Any])?["stopped"] as? [String] == [id], "\(stop.body)")
        _ = await holder.ended()
        _ = await server.stop()
    }
}
