import Foundation
import TestSupport
import Testing
import VoiceAlarmCLI

/// An account on a machine where the Debian package installed `voicealarm-daemon.service` and
/// `voicealarm-web.service`: the units are the checked-in ones (`ShippedUnits`, what the package
/// ships), placed where a user manager finds vendor units (`$XDG_DATA_DIRS/systemd/user`, as
/// `/usr/share/systemd/user` would be), running the binary under test.
private struct PackagedAccount {
    let manager: FakeUserManager
    let vendor: String
    var environment: [String: String]

    init() throws {
        manager = try FakeUserManager()
        vendor = manager.dir.file("vendor/systemd/user")
        environment = manager.environment
        environment["XDG_DATA_DIRS"] = manager.dir.file("vendor")
    }

    /// The account's default data dir, as the units (and the command line without --data-dir) find it.
    var defaultDataDirectory: String { manager.dir.file(".local/share/voicealarm") }

    func run(_ arguments: [String]) async throws -> ProcessResult {
        try await ProcessRunner.run(ProjectPaths.binary, arguments, environment: environment)
    }

    func json(_ arguments: [String]) async throws -> [String: Any] {
        let result = try await run(arguments + ["--json"])
        return try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any], "\(result.stdout)\(result.stderr)")
    }

    /// Installs the package's units, running `executable` in place of `/usr/bin/voicealarm`.
    func ship(running executable: String) throws {
        try FileManager.default.createDirectory(atPath: vendor, withIntermediateDirectories: true)
        for unit in ShippedUnits.all() {
            #expect(unit.text.contains("ExecStart=/usr/bin/voicealarm "), "the package's units run the package's binary")
            try unit.text.replacingOccurrences(of: "ExecStart=/usr/bin/voicealarm ", with: "ExecStart=\(executable) ")
                .write(toFile: "\(vendor)/\(unit.file)", atomically: true, encoding: .utf8)
        }
    }

    /// The binary VoiceAlarm's units run here (this build, or an installed one it prefers): the
    /// first word of `ExecStart=` in a unit `service install` writes for a throwaway data dir.
    func executableOfWrittenUnits() async throws -> String {
        let scratch = manager.dir.file("scratch")
        let install = try await run(["--data-dir", scratch, "service", "install"])
        let path = install.stdout.trimmingCharacters(in: .newlines)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("ExecStart=\"") }, "\(text)")
        let executable = String(line.dropFirst("ExecStart=\"".count).prefix { $0 != "\"" })
        #expect(try await run(["--data-dir", scratch, "service", "remove"]).status == 0)
        return executable
    }

    /// The written units of VoiceAlarm's in the account's unit folder.
    func writtenUnits() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: manager.unitDirectory)) ?? [])
            .filter { $0.hasPrefix("voicealarm-") && $0.hasSuffix(".service") }.sorted()
    }
}

@Suite("The package's user units, preferred by service install for the default data dir", .serialized, .timeLimit(.minutes(1)))
struct ShippedServiceCommandTests {
    @Test("install enables the package's daemon unit instead of writing one; status, doctor, --web and remove follow it; another data dir gets its own")
    func preferred() async throws {
        let account = try PackagedAccount()
        try account.ship(running: try await account.executableOfWrittenUnits())
        let daemonPath = "\(account.vendor)/voicealarm-daemon.service", webPath = "\(account.vendor)/voicealarm-web.service"

        let install = try await account.run(["service", "install"])
        #expect(install.status == 0 && install.stdout == daemonPath + "\n", "\(install.stdout)\(install.stderr)")
        #expect(
            install.stderr.contains("Enabled and started voicealarm-daemon.service (installed with the package, \(daemonPath)) instead of writing a unit"),
            "\(install.stderr)")
        #expect(account.manager.log.contains("--user enable --now voicealarm-daemon.service"), "\(account.manager.log)")
        #expect(account.writtenUnits().isEmpty, "nothing written: \(account.writtenUnits())")

        let status = try await account.json(["service", "status"])
        #expect(status["unit"] as? String == daemonPath && status["shipped"] as? Bool == true, "\(status)")
        #expect(status["installed"] as? Bool == true && status["enabled"] as? Bool == true && status["running"] as? Bool == true, "\(status)")
        let doctor = try await account.run(["doctor"])
        #expect(
            doctor.stdout.contains("daemon service: enabled, running") && doctor.stdout.contains("(voicealarm-daemon.service, installed with the package)"),
            "\(doctor.stdout)")
        let doctorJSON = try await account.json(["doctor"])
        #expect((doctorJSON["daemonService"] as? String)?.hasPrefix("enabled, running") == true, "\(doctorJSON)")

        let again = try await account.run(["service", "install"])
        #expect(again.status == 0 && again.stderr.contains("warning: voicealarm-daemon.service was already enabled; restarted it"), "\(again.stderr)")
        #expect(account.manager.log.contains("--user restart voicealarm-daemon.service"))

        // The web page on serve's defaults: the package's unit; with an address of its own: a written one, the package's disabled.
        let web = try await account.run(["service", "install", "--web"])
        #expect(web.status == 0 && web.stdout == daemonPath + "\n" + webPath + "\n", "\(web.stdout)\(web.stderr)")
        #expect(account.manager.log.contains("--user enable --now voicealarm-web.service"))
        let webStatus = try #require(try await account.json(["service", "status"])["web"] as? [String: Any])
        #expect(webStatus["unit"] as? String == webPath && webStatus["shipped"] as? Bool == true, "\(webStatus)")
        let listening = try await account.run(["service", "install", "--web", "--listen", "0.0.0.0:8470"])
        let writtenWeb = try #require(listening.stdout.split(separator: "\n").last.map(String.init))
        #expect(listening.status == 0 && writtenWeb.hasPrefix(account.manager.unitDirectory + "/voicealarm-web-"), "\(listening.stdout)\(listening.stderr)")
        #expect(listening.stderr.contains("Disabled voicealarm-web.service (installed with the package"), "\(listening.stderr)")
        #expect(account.manager.log.contains("--user disable --now voicealarm-web.service"))
        #expect(try String(contentsOfFile: writtenWeb, encoding: .utf8).contains("\"--listen\" \"0.0.0.0:8470\""))

        // Another data dir is no business of the package's units: it gets its own.
        let other = account.manager.dir.file("other")
        let otherInstall = try await account.run(["--data-dir", other, "service", "install"])
        let otherPath = otherInstall.stdout.trimmingCharacters(in: .newlines)
        #expect(otherInstall.status == 0 && otherPath.hasPrefix(account.manager.unitDirectory + "/voicealarm-daemon-"), "\(otherInstall.stdout)")
        #expect(try String(contentsOfFile: otherPath, encoding: .utf8).contains("\"--data-dir\" \"\(other)\" \"daemon\""))
        #expect(try await account.json(["--data-dir", other, "service", "status"])["shipped"] as? Bool == false)

        // Remove: the written web unit goes, the package's daemon unit is disabled and stays.
        let remove = try await account.run(["service", "remove"])
        #expect(remove.status == 0, "\(remove.stderr)")
        #expect(remove.stderr.contains("Stopped and disabled voicealarm-daemon.service (installed with the package"), "\(remove.stderr)")
        #expect(account.manager.log.contains("--user disable --now voicealarm-daemon.service"))
        #expect(FileManager.default.fileExists(atPath: daemonPath) && !FileManager.default.fileExists(atPath: writtenWeb))
        let removed = try await account.run(["service", "status"])
        #expect(
            removed.status == 1 && removed.stderr.contains("error: voicealarm-daemon.service: the package's daemon service is not enabled"), "\(removed.stderr)"
        )
        let removeAgain = try await account.run(["service", "remove"])
        #expect(removeAgain.status == 1 && removeAgain.stderr.contains("no daemon service is installed"), "\(removeAgain.stderr)")
    }

    @Test("A unit written before the package came is what status reports, until install replaces it with the package's")
    func writtenReplaced() async throws {
        let account = try PackagedAccount()
        let executable = try await account.executableOfWrittenUnits()
        let before = try await account.run(["service", "install"])
        let writtenPath = before.stdout.trimmingCharacters(in: .newlines)
        let writtenName = URL(fileURLWithPath: writtenPath).lastPathComponent
        #expect(before.status == 0 && writtenName.hasPrefix("voicealarm-daemon-"), "\(before.stdout)\(before.stderr)")
        #expect(try String(contentsOfFile: writtenPath, encoding: .utf8).contains("\"--data-dir\" \"\(account.defaultDataDirectory)\""))

        try account.ship(running: executable)
        let status = try await account.json(["service", "status"])
        #expect(status["unit"] as? String == writtenPath && status["shipped"] as? Bool == false && status["running"] as? Bool == true, "\(status)")

        let install = try await account.run(["service", "install"])
        #expect(install.status == 0 && install.stdout == "\(account.vendor)/voicealarm-daemon.service\n", "\(install.stdout)\(install.stderr)")
        #expect(
            install.stderr.contains("Removed \(writtenName), which VoiceAlarm had written: the package's voicealarm-daemon.service does its work now"),
            "\(install.stderr)")
        #expect(!FileManager.default.fileExists(atPath: writtenPath) && account.writtenUnits().isEmpty)
        let log = account.manager.log
        let disabled = try #require(log.range(of: "--user disable --now \(writtenName)"), "\(log)")
        let enabled = try #require(log.range(of: "--user enable --now voicealarm-daemon.service"), "\(log)")
        #expect(disabled.lowerBound < enabled.lowerBound, "the written daemon stops before the package's starts: \(log)")
        #expect(try await account.json(["service", "status"])["shipped"] as? Bool == true)
    }

    /// Why the package's unit does not serve this account's library as VoiceAlarm would run it.
    enum Misfit: String, CaseIterable, CustomTestStringConvertible {
        case anotherBinary, managerDataHome
        var testDescription: String { rawValue }
    }

    @Test("The package's unit is not used when it runs another binary, or the user manager's environment gives it another data dir", arguments: Misfit.allCases)
    func misfit(_ misfit: Misfit) async throws {
        let account = try PackagedAccount()
        let executable = try await account.executableOfWrittenUnits()
        switch misfit {
        case .anotherBinary:
            try account.ship(running: "/opt/elsewhere/bin/voicealarm")
            account.manager.enable("voicealarm-daemon.service")  // enabled by hand, running the other binary on this library
        case .managerDataHome:
            try account.ship(running: executable)
            try account.manager.setEnvironment(["HOME": account.manager.dir.path, "XDG_DATA_HOME": account.manager.dir.file("elsewhere")])
        }
        let install = try await account.run(["service", "install"])
        let path = install.stdout.trimmingCharacters(in: .newlines)
        #expect(install.status == 0 && path.hasPrefix(account.manager.unitDirectory + "/voicealarm-daemon-"), "\(install.stdout)\(install.stderr)")
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("\"\(executable)\" \"--data-dir\" \"\(account.defaultDataDirectory)\""))
        switch misfit {
        case .anotherBinary:
            // Two daemons for one library would fight over it: the package's is disabled.
            #expect(install.stderr.contains("Disabled voicealarm-daemon.service (installed with the package"), "\(install.stderr)")
            #expect(account.manager.log.contains("--user disable --now voicealarm-daemon.service"), "\(account.manager.log)")
            let remove = try await account.run(["service", "remove"])
            #expect(remove.status == 0 && !FileManager.default.fileExists(atPath: path), "\(remove.stderr)")
        case .managerDataHome:
            #expect(!account.manager.log.contains("voicealarm-daemon.service"), "the package's unit serves another folder; left alone: \(account.manager.log)")
        }
    }
}
