import Foundation
import TestSupport
import Testing

/// `serve` holds every address its links, `Host` check and certificate name, so no other local
/// account can take one of them while it runs: `localhost` is 127.0.0.1 *and* ::1 (Chromium tries
/// ::1 first), and `[::]` is dual-stack (an IPv6-only socket left 0.0.0.0 to anyone). Each runs
/// while the daemon rings an alarm.
@Suite("voicealarm serve holds every address it names")
struct EveryAddressTests {
    /// What binding `address` on `port` gives another account: "bound", or the error's name.
    private static func otherAccountBinds(_ address: String, _ port: Int, in folder: String) async throws -> String {
        let account = try await testAccount()
        let family = address.contains(":") ? "socket.AF_INET6" : "socket.AF_INET"
        let result = try await runAs(
            account, in: "/", "/usr/bin/python3",
            [
                "-c",
                """
                import errno, socket
                s = socket.socket(\(family), socket.SOCK_STREAM)
                try:
                    s.bind(("\(address)", \(port))); s.listen(); print("bound")
                except OSError as error:
                    print(errno.errorcode.get(error.errno, str(error.errno)))
                """,
            ])
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("localhost (the default's loopback): 127.0.0.1 and ::1 on one port; another account can take neither", .timeLimit(.minutes(1)))
    func localhost() async throws {
        let siege = try await Siege(lead: 6)
        let server = try await ServeProcess(dataDir: siege.lib.dataDir, arguments: ["--listen", "localhost:0"], environment: siege.lib.devices.environment)
        #expect(server.document["addresses"] as? [String] == ["127.0.0.1:\(server.port)", "[::1]:\(server.port)"], "\(server.document)")
        for address in ["127.0.0.1", "::1"] {
            #expect(try await Self.otherAccountBinds(address, server.port, in: siege.lib.dir.path) == "EADDRINUSE", "\(address) is held")
        }
        // Both answer as the page, verified against the library's authority, under the name localhost.
        for host in ["127.0.0.1", "[::1]", "localhost"] {
            let answer = try await ProcessRunner.run(
                "/usr/bin/curl", ["-s", "-g", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", server.authorityFile, "https://\(host):\(server.port)/pair"])
            #expect(answer.stdout == "200", "\(host): \(answer.stdout) \(answer.stderr)")
        }
        try await siege.rang()
        _ = await server.stop()
    }

    @Test("[::] is dual-stack: another account cannot take 0.0.0.0 on its port, and the link names an address it holds", .timeLimit(.minutes(1)))
    func everyAddress() async throws {
        let siege = try await Siege(lead: 6)
        let server = try await ServeProcess(dataDir: siege.lib.dataDir, arguments: ["--listen", "[::]:0"], environment: siege.lib.devices.environment)
        #expect(server.document["addresses"] as? [String] == ["[::]:\(server.port)"])
        #expect(try await Self.otherAccountBinds("0.0.0.0", server.port, in: siege.lib.dir.path) == "EADDRINUSE", "0.0.0.0 is held")
        #expect(try await Self.otherAccountBinds("127.0.0.1", server.port, in: siege.lib.dir.path) == "EADDRINUSE")
        let linkHost = try #require(URL(string: server.link)?.host)
        let sockets = try await ProcessRunner.run("/usr/bin/ss", ["-ltnH", "sport = :\(server.port)"])
        #expect(sockets.stdout.contains("*:\(server.port)") || sockets.stdout.contains("[::]:\(server.port)"), "\(sockets.stdout)")
        #expect(!linkHost.isEmpty && server.link.hasPrefix("https://"), "\(server.link)")
        try await siege.rang()
        _ = await server.stop()
    }

    @Test("An address another program holds: serve refuses to start, naming it, and holds nothing", .timeLimit(.minutes(1)))
    func refusesWhenOneIsTaken() async throws {
        let folder = TemporaryDirectory("serve")
        let first = try await ServeProcess(dataDir: folder.file("first"), arguments: ["--listen", "[::1]:0"])
        let taken = try await ProcessRunner.run(
            ProjectPaths.binary, ["--data-dir", folder.file("second"), "serve", "--listen", "localhost:\(first.port)", "--no-pairing"])
        #expect(taken.status == 1 && taken.stdout.isEmpty)
        #expect(taken.stderr.hasPrefix("error: ") && taken.stderr.contains("[::1]:\(first.port): Address already in use"), "\(taken.stderr)")
        // It let 127.0.0.1 go again: nothing of it listens.
        let listening = try await ProcessRunner.run("/usr/bin/ss", ["-ltnH", "sport = :\(first.port)"])
        #expect(!listening.stdout.contains("127.0.0.1:\(first.port)"), "\(listening.stdout)")
        _ = await first.stop()
    }
}

/// `serve` started by its socket unit (socket activation): systemd holds the sockets while the
/// page is down and passes them, by the protocol of `sd_listen_fds`, as `systemd-socket-activate`
/// does here (in a shell of its own, so no thread of the test waits for it).
@Suite("voicealarm serve on the sockets systemd holds")
struct SocketActivationTests {
    /// Runs `serve --listen localhost:PORT` under `systemd-socket-activate` holding `held` (the
    /// sockets' addresses, `ADDR` for `ADDR:PORT`) on a free port, then asks `https://[::1]:PORT/pair`
    /// once the sockets are held: what `ss` listed before serve ran, the status curl got, and
    /// what serve said.
    private static func activated(holding held: [String], data: String) async throws -> (listed: String, status: String, said: String, port: Int) {
        let script = """
            P=$(python3 -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
            listen=""; for a in \(held.joined(separator: " ")); do listen="$listen -l $a:$P"; done
            systemd-socket-activate $listen "$0" --data-dir "$1" serve --listen localhost:$P --no-pairing 2>"$1.err" >/dev/null &
            activator=$!
            for i in $(seq 100); do ss -ltnH "sport = :$P" | grep -q ":$P" && break; sleep 0.05; done
            ss -ltnH "sport = :$P" | tr -s ' ' | cut -d' ' -f4 | sort | tr '\n' ' ' > "$1.held"
            for i in $(seq 100); do
              s=$(curl -s -g -o /dev/null -w "%{http_code}" --max-time 5 --cacert "$1/web/authority.pem" "https://127.0.0.1:$P/pair")
              [ "$s" = 200 ] && break
              kill -0 $activator 2>/dev/null || break
              sleep 0.1
            done
            kill -9 $activator 2>/dev/null; wait $activator 2>/dev/null
            printf '%s\n%s\n' "$P" "$s"
            """
        let run = try await ProcessRunner.run("/bin/bash", ["-c", script, ProjectPaths.binary, data])
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let said = (try? String(contentsOfFile: data + ".err", encoding: .utf8)) ?? ""
        let listed = (try? String(contentsOfFile: data + ".held", encoding: .utf8)) ?? ""
        return (listed, lines.count > 1 ? lines[1] : "", said, Int(lines.first ?? "") ?? 0)
    }

    @Test("It serves on the sockets passed, which systemd held before it ran", .timeLimit(.minutes(1)))
    func passedSockets() async throws {
        let folder = TemporaryDirectory("activated")
        let (listed, status, said, port) = try await Self.activated(holding: ["127.0.0.1", "[::1]"], data: folder.file("data"))
        #expect(listed == "127.0.0.1:\(port) [::1]:\(port) ", "held before serve ran: \(listed)")
        #expect(status == "200", "served on the passed socket: \(said)")
        #expect(said.contains("listening on 127.0.0.1:\(port) and [::1]:\(port)"), "\(said)")
    }

    @Test("Sockets passed that are not what --listen asks are refused, naming both", .timeLimit(.minutes(1)))
    func mismatch() async throws {
        let folder = TemporaryDirectory("activated")
        let (_, status, said, port) = try await Self.activated(holding: ["127.0.0.1"], data: folder.file("data"))
        #expect(status != "200")
        #expect(said.contains("error: the socket unit passed 127.0.0.1:\(port), but serve holds 127.0.0.1:\(port) and [::1]:\(port)"), "\(said)")
    }
}
