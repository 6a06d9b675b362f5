import Foundation
import TestSupport
import Testing

/// A library with an alarm due `lead` seconds after the daemon's fake clock starts, and that
/// daemon running: what must still ring while the server is attacked.
final class Siege {
    let lib: RingLibrary
    let alarm: String
    let daemon: FakeTimeDaemon

    init(lead: Int) async throws {
        lib = try RingLibrary()
        alarm = try await lib.alarm()
        daemon = try FakeTimeDaemon(lib, fakeStart: String(format: "2027-01-04 06:59:%02d", 60 - lead))
    }

    /// The alarm rang, on time, and the daemon stopped cleanly.
    func rang() async throws {
        #expect(await daemon.waitForEvent("stopped alarm \(alarm)"), "the daemon rang through the attack")
        let (status, stderr) = await daemon.stop()
        #expect(status == 0 && stderr.contains("Ringing alarm \(alarm) (due 2027-01-04T07:00:00+00:00)"), "\(stderr)")
    }
}

/// `attacker_server.py` run by another local account: plain HTTP, or HTTPS with a certificate it
/// made itself (`selfMadeTLS`), the best it can do without the library's authority.
final class Attacker {
    let process = Process()
    let log: String
    private let script: String
    private(set) var port = 0

    init(port requested: Int, in folder: String, selfMadeTLS: Bool = false) async throws {
        let account = try await testAccount()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        script = "\(folder)/attacker_server.py"
        try FileManager.default.copyItem(atPath: "\(ProjectPaths.root)/Tests/Support/attacker_server.py", toPath: script)
        log = "\(folder)/log.jsonl"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        // The other account may reach its own folder (and pass through the test's), nothing more.
        chmod((folder as NSString).deletingLastPathComponent, 0o711)
        chmod(folder, 0o777)
        chmod(log, 0o666)
        chmod(script, 0o644)
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
        var tls: [String] = []
        if selfMadeTLS {
            let made = try await ProcessRunner.run(
                "/usr/bin/openssl",
                [
                    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout", "\(folder)/key.pem", "-out", "\(folder)/cert.pem",
                ])
            guard made.status == 0 else { throw TestSupportError("openssl: \(made.stderr)") }
            for file in ["key.pem", "cert.pem"] { chmod("\(folder)/\(file)", 0o644) }
            tls = ["\(folder)/cert.pem", "\(folder)/key.pem"]
        }
        process.arguments = ["-u", account, "--", "/usr/bin/python3", script, String(requested), log] + tls
        // Started in its own folder, not the test's (see `runAs`): a checkout may be out of its reach.
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<100 {
            if let found = entries.first(where: { $0["port"] != nil })?["port"] as? Int { port = found; return }
            await pause(0.05)
        }
        throw TestSupportError("the other account's server did not start")
    }

    var entries: [[String: Any]] {
        ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// Whether anything but a port number reached the log: a request the browser sent its page.
    var wasVisited: Bool { entries.contains { $0["path"] != nil } }

    /// The `voicealarm_device` value the browser sent this server, if it did.
    var cookie: String? {
        entries.compactMap { $0["cookie"] as? String }.flatMap { $0.split(separator: ";") }
            .map { $0.trimmingCharacters(in: .whitespaces) }.first { $0.hasPrefix("voicealarm_device=") }
            .map { String($0.dropFirst("voicealarm_device=".count)) }
    }

    /// What the page found of the device key.
    var keyReport: [String: Any]? { entries.compactMap { $0["report"] as? [String: Any] }.first { $0["step"] as? String == "key" } }

    func stop() async {
        // runuser's child is the server: end the whole group of the other account's processes.
        if process.isRunning { process.terminate() }
        _ = await process.ended()
        _ = try? await ProcessRunner.run("/usr/bin/pkill", ["-u", "voicealarm-tester", "-f", script])
        for _ in 0..<50 where ((try? await ProcessRunner.run("/usr/bin/pgrep", ["-u", "voicealarm-tester", "-f", script]))?.status ?? 1) == 0 {
            await pause(0.05)
        }
    }
}
