import Foundation
import TestSupport
import Testing

/// A user manager stand-in: a `systemctl` on PATH that logs every call and keeps enabled units as
/// marker files; a unit that `crash` marks is enabled but not active. `show-environment` prints
/// what `setEnvironment` gave it (nothing by default).
final class FakeUserManager {
    let dir = TemporaryDirectory("user-manager")
    var log: String { (try? String(contentsOfFile: dir.file("calls"), encoding: .utf8)) ?? "" }
    var environment: [String: String] {
        [
            "PATH": dir.file("bin") + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "XDG_CONFIG_HOME": dir.file("config"), "HOME": dir.path,
            // As systemd reads it: the account's own units and a vendor folder of the test's, never
            // the machine's /usr/lib/systemd/user (a package installed here is no part of a test).
            "SYSTEMD_UNIT_PATH": dir.file("config/systemd/user") + ":" + dir.file("vendor/systemd/user"),
        ]
    }
    var unitDirectory: String { dir.file("config/systemd/user") }

    init() throws {
        try FileManager.default.createDirectory(atPath: dir.file("bin"), withIntermediateDirectories: true)
        let script = """
            #!/bin/bash
            echo "$*" >> "\(dir.file("calls"))"
            shift   # --user
            case "$1" in
              show-environment) cat "\(dir.path)/environment" 2>/dev/null; exit 0 ;;
              daemon-reload|link) exit 0 ;;
              restart|start) rm -f "\(dir.path)/crashed-${@: -1}"; exit 0 ;;
              enable) touch "\(dir.path)/enabled-${@: -1}"; exit 0 ;;
              disable) rm -f "\(dir.path)/enabled-${@: -1}"; exit 0 ;;
              is-enabled) [ -e "\(dir.path)/enabled-$2" ] ;;
              is-active) [ -e "\(dir.path)/enabled-$2" ] && [ ! -e "\(dir.path)/crashed-$2" ] ;;
              *) exit 0 ;;
            esac
            """
        try script.write(toFile: dir.file("bin/systemctl"), atomically: true, encoding: .utf8)
        chmod(dir.file("bin/systemctl"), 0o755)
    }

    /// The manager's own environment, as `show-environment` prints it (`NAME=value` lines).
    func setEnvironment(_ variables: [String: String]) throws {
        try variables.map { "\($0.key)=\($0.value)\n" }.joined().write(toFile: dir.file("environment"), atomically: true, encoding: .utf8)
    }

    /// The unit is enabled as `systemctl --user enable` by hand would enable it.
    func enable(_ unit: String) { _ = FileManager.default.createFile(atPath: dir.file("enabled-\(unit)"), contents: nil) }

    /// The unit stops as a crash stops it: still enabled, no longer active.
    func crash(_ unit: String) { _ = FileManager.default.createFile(atPath: dir.file("crashed-\(unit)"), contents: nil) }
}

@Suite("The daemon as a systemd user service", .serialized, .timeLimit(.minutes(1)))
struct ServiceCommandTests {
    @Test("install writes a unit systemd accepts, enables and starts it; again re-writes it; remove undoes it; status says which")
    func lifecycle() async throws {
        let manager = try FakeUserManager()
        let data = manager.dir.file("data")
        func run(_ arguments: [String]) async throws -> ProcessResult {
            try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", data] + arguments, environment: manager.environment)
        }
        let install = try await run(["service", "install"])
        #expect(install.status == 0, "\(install.stderr)")
        let path = install.stdout.trimmingCharacters(in: .newlines)
        #expect(path.hasPrefix(manager.unitDirectory + "/voicealarm-daemon-") && path.hasSuffix(".service"))
        let name = URL(fileURLWithPath: path).lastPathComponent
        #expect(manager.log.contains("--user daemon-reload") && manager.log.contains("--user enable --now \(name)"), "\(manager.log)")
        let unit = try String(contentsOfFile: path, encoding: .utf8)
        #expect(unit.contains("Restart=on-failure") && unit.contains("\"--data-dir\" \"\(data)\" \"daemon\""), "\(unit)")
        let verify = try await ProcessRunner.run("/usr/bin/systemd-analyze", ["verify", path])
        #expect(verify.status == 0, "\(verify.stderr)")

        let status = try await run(["service", "status", "--json"])
        let state = try #require(try JSONSerialization.jsonObject(with: status.stdoutData) as? [String: Any])
        #expect(status.status == 0 && state["installed"] as? Bool == true && state["running"] as? Bool == true, "\(status.stdout)")
        await #expect(try run(["doctor"]).stdout.contains("daemon service: enabled, running"))

        let again = try await run(["service", "install"])
        #expect(again.status == 0 && again.stderr.contains("already installed"), "\(again.stderr)")
        let remove = try await run(["service", "remove"])
        #expect(remove.status == 0 && !FileManager.default.fileExists(atPath: path))
        #expect(manager.log.contains("--user disable --now \(name)"))
        let removeAgain = try await run(["service", "remove"])
        #expect(removeAgain.status == 1 && removeAgain.stderr.hasPrefix("error: ") && removeAgain.stderr.contains("no daemon service is installed"))
        await #expect(try run(["service", "status"]).status == 1)
    }

    @Test("--mqtt: refused until a broker is remembered; then the bridge's unit beside the daemon's, which remove takes away")
    func homeAssistantBridge() async throws {
        let manager = try FakeUserManager()
        let data = manager.dir.file("data")
        func run(_ arguments: [String]) async throws -> ProcessResult {
            try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", data] + arguments, environment: manager.environment)
        }
        let refused = try await run(["service", "install", "--mqtt"])
        #expect(refused.status == 64 && refused.stderr.hasPrefix("error: --mqtt: no broker is remembered"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: manager.unitDirectory), "nothing is written when refused")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try Data(#"{"host": "127.0.0.1", "port": 1883, "username": "va", "preAlarmMinutes": 10, "allowAnonymousBroker": false}"#.utf8)
            .write(to: URL(fileURLWithPath: "\(data)/mqtt.json"))
        let install = try await run(["service", "install", "--mqtt"])
        #expect(install.status == 0 && install.stderr.contains("127.0.0.1:1883"), "\(install.stderr)")
        let units = try FileManager.default.contentsOfDirectory(atPath: manager.unitDirectory).filter { $0.hasPrefix("voicealarm-mqtt-") }
        let path = "\(manager.unitDirectory)/\(try #require(units.first))"
        let unit = try String(contentsOfFile: path, encoding: .utf8)
        #expect(unit.contains("\"--data-dir\" \"\(data)\" \"mqtt\"") && unit.contains("Restart=on-failure"), "\(unit)")
        #expect(manager.log.contains("--user enable --now \(units[0])"), "\(manager.log)")
        let verify = try await ProcessRunner.run("/usr/bin/systemd-analyze", ["verify", path])
        #expect(verify.status == 0, "\(verify.stderr)")
        let remove = try await run(["service", "remove"])
        #expect(remove.status == 0 && !FileManager.default.fileExists(atPath: path) && remove.stderr.contains("Home Assistant no longer follows"))
    }

    @Test("A library on systemd timers needs no daemon: install says so")
    func systemdBackend() async throws {
        let manager = try FakeUserManager()
        let data = manager.dir.file("data")
        _ = try await ProcessRunner.run(
            ProjectPaths.binary, ["--data-dir", data, "--scheduler", "systemd", "reconcile", "-q"], environment: manager.environment)
        let install = try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", data, "service", "install"], environment: manager.environment)
        #expect(install.status == 1 && install.stderr.contains("need no daemon"), "\(install.stderr)")
    }

    @Test("Where no user manager runs, install exits 1 saying nothing would ring and what to do; status agrees it does not run")
    func noUserManager() async throws {
        let manager = try FakeUserManager()
        // A systemctl with no manager behind it, as in a container or an ssh session without one.
        try "#!/bin/sh\necho \"Failed to connect to bus: No medium found\" >&2\nexit 1\n".write(
            toFile: manager.dir.file("bin/systemctl"), atomically: true, encoding: .utf8)
        let data = manager.dir.file("data")
        let install = try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", data, "service", "install"], environment: manager.environment)
        #expect(install.status == 1, "\(install.stderr)")
        let error = install.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }
        #expect(error.count == 1 && error[0].contains("no systemd user manager runs") && error[0].contains("no alarm will ring"), "\(install.stderr)")
        #expect(error.first?.contains("voicealarm daemon") == true, "an alternative is named: \(install.stderr)")
        // A folder of the person's choosing is another matter: written there to be linked, as asked.
        let elsewhere = try await ProcessRunner.run(
            ProjectPaths.binary, ["--data-dir", data, "--unit-dir", manager.dir.file("units"), "service", "install"], environment: manager.environment)
        #expect(elsewhere.status == 0 && elsewhere.stderr.contains("systemctl --user link"), "\(elsewhere.stderr)")
    }
}
