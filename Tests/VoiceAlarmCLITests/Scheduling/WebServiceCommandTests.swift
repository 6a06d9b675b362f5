import Foundation
import TestSupport
import Testing
import VoiceAlarmHTTP

/// Runs the binary from `folder` (so relative paths are read from there) with `environment`.
private func voicealarm(_ arguments: [String], from folder: String, environment: [String: String]? = nil) async throws -> ProcessResult {
    try await ProcessRunner.run("/bin/bash", ["-c", "cd \"$0\" && exec \"$@\"", folder, ProjectPaths.binary] + arguments, environment: environment)
}

/// `systemd-analyze --user verify` on `paths`: its status and what it said (empty when it accepts them without a word).
private func verify(_ paths: [String]) async throws -> ProcessResult {
    let runtime = TemporaryDirectory("verify-runtime")
    chmod(runtime.path, 0o700)
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_RUNTIME_DIR"] = runtime.path
    return try await ProcessRunner.run("/usr/bin/systemd-analyze", ["--user", "verify"] + paths, environment: environment)
}

/// A certificate and key openssl makes, in `folder`.
private func certificatePair(in folder: String) async throws -> (certificate: String, key: String) {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let certificate = "\(folder)/bedside.crt", key = "\(folder)/bedside.key"
    let made = try await ProcessRunner.run(
        "openssl",
        [
            "req", "-x509", "-nodes", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
            "-subj", "/CN=bedside", "-days", "2", "-keyout", key, "-out", certificate,
        ])
    guard made.status == 0 else { throw TestSupportError("openssl req failed: \(made.stderr)") }
    return (certificate, key)
}

@Suite("The web page as a systemd user service beside the daemon", .serialized, .timeLimit(.minutes(1)))
struct WebServiceCommandTests {
    /// `service install` arguments after `--web` (`$DIR` is the test's folder, the binary's working
    /// directory) and the words the unit's ExecStart must end with after `"serve"`.
    static let installs: [(arguments: [String], serveWords: String)] = [
        ([], ""),
        (["--listen", "0.0.0.0:8470"], #" "--listen" "0.0.0.0:8470""#),
        (["--listen", "[::1]:9000", "--https"], #" "--listen" "[::1]:9000""#),
        (["--listen", "[0:0::0]:8470"], #" "--listen" "[0:0::0]:8470""#),
        (
            ["--listen", "192.168.1.20:8470", "--cert", "certs 100%/bedside.crt", "--key", "$DIR/certs 100%/bedside.key"],
            #" "--listen" "192.168.1.20:8470" "--cert" "$DIR/certs 100%%/bedside.crt" "--key" "$DIR/certs 100%%/bedside.key""#
        ),
    ]

    @Test(
        "install --web writes a unit systemd accepts: serve with its options (paths absolute), Restart=on-failure, nothing tying it to the daemon",
        arguments: installs)
    func unitFile(arguments: [String], serveWords: String) async throws {
        let dir = TemporaryDirectory("web-unit")
        let data = dir.file("data"), units = dir.file("units")
        if arguments.contains("--cert") { _ = try await certificatePair(in: dir.file("certs 100%")) }
        let given = arguments.map { $0.replacingOccurrences(of: "$DIR", with: dir.path) }
        let install = try await voicealarm(["--data-dir", data, "--unit-dir", units, "service", "install", "--web"] + given, from: dir.path)
        #expect(install.status == 0, "\(install.stderr)")
        let paths = install.stdout.split(separator: "\n").map(String.init)
        try #require(paths.count == 2, "\(install.stdout)")
        let (daemonPath, webPath) = (paths[0], paths[1])
        let id = daemonPath.dropFirst("\(units)/voicealarm-daemon-".count).dropLast(".service".count)
        #expect(daemonPath.hasPrefix("\(units)/voicealarm-daemon-") && webPath == "\(units)/voicealarm-web-\(id).service", "\(paths)")
        #expect(install.stderr.contains("No systemd user manager manages it here; to start it: systemctl --user link \(webPath)"), "\(install.stderr)")

        let webUnit = try String(contentsOfFile: webPath, encoding: .utf8), daemonUnit = try String(contentsOfFile: daemonPath, encoding: .utf8)
        let lines = webUnit.split(separator: "\n").map(String.init)
        let execStart = try #require(lines.first { $0.hasPrefix("ExecStart=") })
        // Never a pairing link in the journal: the person runs 'serve pair'.
        let serving = "\" \"--data-dir\" \"\(data)\" \"serve\"" + serveWords.replacingOccurrences(of: "$DIR", with: dir.path) + " \"--no-pairing\""
        #expect(execStart.hasPrefix("ExecStart=\"/") && execStart.hasSuffix(serving), "\(execStart) should end as \(serving)")
        #expect(lines.contains("Restart=on-failure") && lines.contains("WantedBy=default.target"), "\(webUnit)")
        // Neither unit names the other, and the web page's asks for nothing that would tie it to the daemon.
        for ties in ["Requires=", "BindsTo=", "PartOf=", "Requisite=", "Wants=", "After=", "Before=", "Upholds="] {
            #expect(!lines.contains { $0.hasPrefix(ties) }, "the web unit has \(ties)")
        }
        let (daemonName, webName) = (URL(fileURLWithPath: daemonPath).lastPathComponent, URL(fileURLWithPath: webPath).lastPathComponent)
        #expect(!webUnit.contains(daemonName) && !daemonUnit.contains(webName))
        #expect(daemonUnit.contains("\"--data-dir\" \"\(data)\" \"daemon\"") && daemonUnit.contains("Restart=on-failure"))

        // The socket unit beside it holds every address serve holds, so no other account takes the
        // port while the page restarts: the account's own port on both loopbacks by default.
        let socketPath = webPath.replacingOccurrences(of: ".service", with: ".socket")
        let socket = try String(contentsOfFile: socketPath, encoding: .utf8).split(separator: "\n").map(String.init)
        let streams = socket.filter { $0.hasPrefix("ListenStream=") }.map { String($0.dropFirst("ListenStream=".count)) }
        let port = ListenAddress.accountPort(uid: getuid())
        let expected: [String] =
            switch arguments.first == "--listen" ? arguments[1] : "" {
            case "": ["127.0.0.1:\(port)", "[::1]:\(port)"]
            case "0.0.0.0:8470": ["[::]:8470"]
            case "[0:0::0]:8470": ["[::]:8470"]  // every address, however it is spelled
            case let listen: [listen]
            }
        #expect(streams == expected, "\(socket)")
        #expect(socket.contains(expected == ["[::]:8470"] ? "BindIPv6Only=both" : "BindIPv6Only=ipv6-only"))
        let verified = try await verify([daemonPath, webPath, socketPath])
        #expect(verified.status == 0 && verified.stderr.isEmpty && verified.stdout.isEmpty, "\(verified.stderr)\(verified.stdout)")
        let removed = try await voicealarm(["--data-dir", data, "--unit-dir", units, "service", "remove"], from: dir.path)
        #expect(removed.status == 0 && !FileManager.default.fileExists(atPath: socketPath), "the socket unit goes with the page's: \(removed.stderr)")
    }

    /// What `service install` refuses before it opens the library or writes a unit: the arguments,
    /// the exit code, and the option the error names.
    static let refusals: [(arguments: [String], code: Int32, names: String)] = [
        (["--web", "--listen", "8470"], 64, "--listen"),
        (["--web", "--listen", "bedside.example:8470"], 64, "--listen"),
        (["--web", "--listen", "0.0.0.0:65536"], 64, "--listen"),
        (["--web", "--listen", "::1:8470"], 64, "--listen"),
        (["--web", "--cert", "bedside.crt"], 64, "--cert"),
        (["--web", "--key", "bedside.key"], 64, "--key"),
        (["--listen", "0.0.0.0:8470"], 64, "--listen"),
        (["--https"], 64, "--https"),
        (["--web", "--cert", "missing.crt", "--key", "missing.key"], 1, "missing.crt"),
    ]

    @Test(
        "A bad --listen, --cert without --key (or the other way), serve's options without --web, a certificate that is not there: refused, nothing written",
        arguments: refusals)
    func refused(arguments: [String], code: Int32, names: String) async throws {
        let dir = TemporaryDirectory("web-refused")
        let data = dir.file("data"), units = dir.file("units")
        for json in [false, true] {
            let result = try await voicealarm(
                ["--data-dir", data, "--unit-dir", units] + (json ? ["--json"] : []) + ["service", "install"] + arguments,
                from: dir.path)
            #expect(result.status == code, "\(arguments): \(result.stderr)")
            let first = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
            #expect(first.hasPrefix("error: ") && first.contains(names), "\(arguments): \(result.stderr)")
            if json {
                let error = (try? JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])?["error"] as? [String: Any]
                #expect(error?["code"] as? Int == Int(code), "\(result.stdout)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: units) && !FileManager.default.fileExists(atPath: data), "\(dir.contents())")
    }

    @Test("Installed, started and stopped beside the daemon: status and doctor tell its state, a web page down is only a warning, remove takes both away")
    func lifecycle() async throws {
        let manager = try FakeUserManager()
        let devices = try AlsaTestDevices()  // a device that opens, so the web page is all doctor could warn of
        let data = manager.dir.file("data")
        func run(_ arguments: [String]) async throws -> ProcessResult {
            try await ProcessRunner.run(
                ProjectPaths.binary, ["--data-dir", data] + arguments,
                environment: devices.environment.merging(manager.environment) { $1 })
        }
        func json(_ arguments: [String]) async throws -> [String: Any] {
            let result = try await run(arguments + ["--json"])
            return try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any], "\(result.stdout)\(result.stderr)")
        }

        // The daemon alone: no web page, and status says so with null.
        let daemonOnly = try await run(["service", "install"])
        #expect(daemonOnly.status == 0 && daemonOnly.stdout.split(separator: "\n").count == 1, "\(daemonOnly.stderr)")
        let withoutWeb = try await json(["service", "status"])
        #expect(withoutWeb["web"] is NSNull, "\(withoutWeb)")
        let doctorWithoutWeb = try await json(["doctor"])
        #expect((doctorWithoutWeb["webService"] as? String)?.hasPrefix("not installed") == true, "\(doctorWithoutWeb)")

        let install = try await run(["service", "install", "--web", "--listen", "0.0.0.0:8470"])
        #expect(install.status == 0, "\(install.stderr)")
        let paths = install.stdout.split(separator: "\n").map(String.init)
        let webPath = try #require(paths.last), webName = URL(fileURLWithPath: webPath).lastPathComponent
        #expect(paths.count == 2 && webName.hasPrefix("voicealarm-web-"), "\(install.stdout)")
        #expect(manager.log.contains("--user enable --now \(webName)"), "\(manager.log)")
        #expect(
            install.stderr.contains("warning: voicealarm-daemon-") && install.stderr.contains("already installed"),
            "the daemon's unit re-written: \(install.stderr)")
        #expect(
            install.stderr.contains("Installed \(webName), enabled and started") && install.stderr.contains("serve pair --listen 0.0.0.0:8470"),
            "\(install.stderr)")

        let status = try await json(["service", "status"])
        let web = try #require(status["web"] as? [String: Any], "\(status)")
        #expect(web["unit"] as? String == webPath && web["installed"] as? Bool == true && web["enabled"] as? Bool == true && web["running"] as? Bool == true)
        #expect(Set(status.keys) == ["unit", "shipped", "installed", "managed", "enabled", "running", "lingering", "cannotWake", "web"])
        #expect(status["shipped"] as? Bool == false && web["shipped"] as? Bool == false, "units written, none shipped: \(status)")
        #expect(status["running"] as? Bool == true)
        let doctor = try await run(["doctor", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: doctor.stdoutData) as? [String: Any])
        #expect(report["webService"] as? String == "enabled, running", "\(report)")
        #expect(doctor.status == 0 && !doctor.stderr.contains("web page"), "\(doctor.stderr)")

        // The server crashes: a warning in status and doctor, never a failure of either.
        manager.crash(webName)
        let crashedStatus = try await run(["service", "status"])
        #expect(crashedStatus.status == 0 && crashedStatus.stdout.contains("web running: no"), "\(crashedStatus.stdout)")
        #expect(
            crashedStatus.stderr.contains("warning: \(webName): installed but not running: the web page is down; alarms still ring"), "\(crashedStatus.stderr)")
        let down = try await run(["doctor"])
        #expect(down.status == 0, "\(down.stderr)")
        #expect(down.stdout.contains("web service: enabled, not running"), "\(down.stdout)")
        #expect(
            down.stderr.contains("warning: the web server's service \(webName) is installed but not running: the web page is down; alarms still ring"),
            "\(down.stderr)")
        let downJSON = try await json(["doctor"])
        #expect((downJSON["problems"] as? [String])?.contains { $0.contains("the web page is down; alarms still ring") } == true, "\(downJSON)")
        // Installing again restarts it.
        let reinstall = try await run(["service", "install", "--web", "--listen", "0.0.0.0:8470"])
        #expect(reinstall.status == 0 && reinstall.stderr.contains("warning: \(webName) was already installed; re-wrote it"), "\(reinstall.stderr)")
        #expect(manager.log.contains("--user restart \(webName)"))
        let restarted = try await json(["service", "status"])
        #expect((restarted["web"] as? [String: Any])?["running"] as? Bool == true, "\(restarted)")

        let remove = try await run(["service", "remove"])
        #expect(remove.status == 0, "\(remove.stderr)")
        #expect(!FileManager.default.fileExists(atPath: webPath) && !FileManager.default.fileExists(atPath: paths[0]))
        #expect(
            manager.log.contains("--user disable --now \(webName)")
                && manager.log.contains("--user disable --now \(URL(fileURLWithPath: paths[0]).lastPathComponent)"))
        let removed = try await json(["service", "status"])
        #expect(removed["web"] is NSNull, "\(removed)")
        let again = try await run(["service", "remove"])
        #expect(again.status == 1 && again.stderr.contains("no daemon service is installed"), "\(again.stderr)")
    }
}
