import Foundation
import Synchronization
import TestSupport
import Testing
import VoiceAlarmCore
import VoiceAlarmFiles

@testable import VoiceAlarmScheduling

/// A `systemctl` that records what it was asked, with or without a user manager.
final class FakeSystemctl: SystemctlRunning, Sendable {
    let managerRunning: Bool
    let linger: Bool
    let calls = Mutex<[[String]]>([])
    init(managerRunning: Bool, linger: Bool = true) {
        self.managerRunning = managerRunning
        self.linger = linger
    }
    func user(_ arguments: [String]) -> (status: Int32, output: String) {
        calls.withLock { $0.append(arguments) }
        return managerRunning ? (0, "") : (1, "Failed to connect to bus: No medium found")
    }
    func lingering() -> Bool { linger }
}

private let weekly = AlarmConfiguration(
    schedule: .weekly(AlarmTime(hour: 6, minute: 45), days: [.monday, .friday]), sound: .named("x.m4a"),
    label: "wake\nExecStart=/bin/rm -rf ~ ; \"%h\" $HOME")

@Suite("systemd timer units")
struct SystemdTimerSchedulerTests {
    private func scheduler(
        _ dir: TemporaryDirectory, dataDir: String? = nil, systemctl: FakeSystemctl = FakeSystemctl(managerRunning: false)
    ) throws -> SystemdTimerScheduler {
        try SystemdTimerScheduler(
            unitDirectory: dir.file("units"), dataDirectory: dataDir ?? dir.file("data"),
            executable: ProjectPaths.binary, timeZone: TimeZone(identifier: "Europe/Berlin")!,
            now: { Date(timeIntervalSince1970: 1_805_000_000) }, systemctl: systemctl)
    }

    /// A unit folder holding one weekly alarm's timer and service.
    private func scheduledAlarm(_ label: String) throws -> (TemporaryDirectory, SystemdTimerScheduler, UUID) {
        let dir = TemporaryDirectory(label)
        let systemd = try scheduler(dir)
        let id = UUID()
        try systemd.schedule(id: id, configuration: weekly)
        return (dir, systemd, id)
    }

    @Test(
        "Every generated unit passes systemd-analyze verify, and ExecStart runs exactly our words, whatever the data dir holds",
        arguments: ["plain", "with space", "100% \"quoted\" ; $HOME \\ back"])
    func verifyAndQuoting(_ dataName: String) async throws {
        let dir = TemporaryDirectory("units")
        let dataDir = dir.file(dataName)
        let systemd = try scheduler(dir, dataDir: dataDir)
        let configurations = [
            weekly,
            AlarmConfiguration(schedule: .weekly(AlarmTime(hour: 2, minute: 30), days: .everyDay), sound: .default),
            AlarmConfiguration(schedule: .once(AlarmTime(hour: 7, minute: 0), date: LocalDate(parsing: "2027-06-01")!), sound: .default),
            AlarmConfiguration(schedule: .fixed(Date(timeIntervalSince1970: 1_830_000_000)), sound: .default),
        ]
        var ids: [UUID] = []
        for configuration in configurations {
            let id = UUID()
            ids.append(id)
            try systemd.schedule(id: id, configuration: configuration)
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.file("units")).sorted()
        #expect(files.count == 8)
        let verify = try await ProcessRunner.run("/usr/bin/systemd-analyze", ["verify"] + files.map { dir.file("units/\($0)") })
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(!verify.stderr.contains("voicealarm-"), "\(verify.stderr)")

        let service = try String(contentsOfFile: dir.file("units/voicealarm-\(ids[0].uuidString.lowercased()).service"), encoding: .utf8)
        let exec = try #require(service.split(separator: "\n").first { $0.hasPrefix("ExecStart=") }).dropFirst("ExecStart=".count)
        // An independent reading of the quoting: shell-style words, then systemd's %% and $$.
        let split = try await ProcessRunner.run("/usr/bin/python3", ["-c", "import shlex,sys,json; print(json.dumps(shlex.split(sys.argv[1])))", String(exec)])
        let words = try JSONDecoder().decode([String].self, from: split.stdoutData)
            .map { $0.replacingOccurrences(of: "%%", with: "%").replacingOccurrences(of: "$$", with: "$") }
        #expect(words == [ProjectPaths.binary, "--data-dir", dataDir, "ring", ids[0].uuidString.lowercased(), "--scheduled"])
        // Nothing a user types reaches a unit: the label is not in it.
        for file in files {
            let text = try String(contentsOfFile: dir.file("units/\(file)"), encoding: .utf8)
            #expect(!text.contains("rm -rf") && !text.contains("wake"))
            #expect(text.contains("X-VoiceAlarm-DataDir=\(dataDir)\n"))
        }
        let timer = try String(contentsOfFile: dir.file("units/voicealarm-\(ids[0].uuidString.lowercased()).timer"), encoding: .utf8)
        #expect(timer.contains("OnCalendar=Mon,Fri *-*-* 06:45:00\n") && timer.contains("AccuracySec=1s\n"))
        let held = Dictionary(uniqueKeysWithValues: try systemd.alarms().map { ($0.id, $0.configuration) })
        #expect(ids.map { held[$0] } == configurations)
        #expect(try systemd.alarms().allSatisfy(systemd.isCurrent))
        #expect(Set(try systemd.alarms().map(\.id)) == Set(ids))
    }

    @Test("A data dir with a newline is refused for units")
    func unsafeDataDir() {
        #expect(throws: SchedulerError.unsafePath("/tmp/a\nb")) {
            try SystemdTimerScheduler(unitDirectory: "/tmp/u", dataDirectory: "/tmp/a\nb", executable: "/bin/true")
        }
    }

    @Test("Only our own data dir's units, and orphans, are ours; other files are never touched")
    func ownership() throws {
        let dir = TemporaryDirectory("own")
        let mine = try scheduler(dir)
        let other = try scheduler(dir, dataDir: dir.file("other-data"))
        let a = UUID(), b = UUID(), orphan = UUID()
        try mine.schedule(id: a, configuration: weekly)
        try other.schedule(id: b, configuration: weekly)
        let orphanText = "[Unit]\nDescription=old\n[Timer]\nOnCalendar=daily\n"
        try orphanText.write(toFile: dir.file("units/voicealarm-\(orphan.uuidString.lowercased()).timer"), atomically: true, encoding: .utf8)
        try "[Unit]\nDescription=not ours\n".write(toFile: dir.file("units/backup.timer"), atomically: true, encoding: .utf8)
        #expect(Set(try mine.alarms().map(\.id)) == [a, orphan])
        #expect(try mine.alarms().first { $0.id == orphan }?.configuration == SystemdTimerScheduler.unreadable)
        #expect(!mine.isCurrent(ScheduledAlarm(id: orphan, configuration: weekly)))
        #expect(mine.isCurrent(ScheduledAlarm(id: a, configuration: weekly)))
        try mine.cancel(id: orphan)
        try mine.cancel(id: a)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.file("units")).sorted()
                == ["backup.timer", "voicealarm-\(b.uuidString.lowercased()).service", "voicealarm-\(b.uuidString.lowercased()).timer"])
    }

    @Test("An edited unit is not current: reconcile rewrites it")
    func editedUnit() throws {
        let (dir, systemd, id) = try scheduledAlarm("edited")
        let path = dir.file("units/voicealarm-\(id.uuidString.lowercased()).timer")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "AccuracySec=1s", with: "AccuracySec=1h").write(toFile: path, atomically: true, encoding: .utf8)
        #expect(!systemd.isCurrent(ScheduledAlarm(id: id, configuration: weekly)))
    }

    @Test(
        "Cancelling in a read-only unit folder is an error naming the unit that stays; an alarm with no units there cancels fine",
        .timeLimit(.minutes(1)))
    func cancelReadOnly() async throws {
        let (dir, systemd, id) = try scheduledAlarm("cancel-ro")
        try await ProcessRunner.mustRun("/usr/bin/env", ["mount", "--bind", systemd.unitDirectory, systemd.unitDirectory])
        defer { unmountLazily(systemd.unitDirectory) }
        try await ProcessRunner.mustRun("/usr/bin/env", ["mount", "-o", "remount,bind,ro", systemd.unitDirectory])
        #expect(
            throws: SchedulerError.unitDirectory(
                path: systemd.unitDirectory,
                reason: "cannot remove voicealarm-\(id.uuidString.lowercased()).timer: Read-only file system")
        ) {
            try systemd.cancel(id: id)
        }
        #expect(try systemd.alarms().map(\.id) == [id], "still held, as systemd would still ring it")
        try systemd.cancel(id: UUID())
    }

    @Test("Without a user manager the units are written and the problem says how to activate them; with one, they are enabled")
    func activation() throws {
        let dir = TemporaryDirectory("activate")
        let none = FakeSystemctl(managerRunning: false)
        let idle = try scheduler(dir, systemctl: none)
        try idle.schedule(id: UUID(), configuration: weekly)
        #expect(idle.problems() == [.noUserManager(unitDirectory: idle.unitDirectory)])
        #expect(none.calls.withLock { $0 }.allSatisfy { $0 == ["show-environment"] })

        let running = FakeSystemctl(managerRunning: true, linger: false)
        let real = try SystemdTimerScheduler(
            unitDirectory: SystemdTimerScheduler.defaultUnitDirectory + "-test-\(UUID().uuidString.prefix(6))",
            dataDirectory: dir.file("data"), executable: ProjectPaths.binary, systemctl: running)
        #expect(
            real.problems() == [
                .unitDirectoryNotRead(unitDirectory: real.unitDirectory, systemdReads: SystemdTimerScheduler.defaultUnitDirectory),
                .lingeringOff,
            ])
        try? FileManager.default.removeItem(atPath: real.unitDirectory)
    }

    @Test("A killed command's half-written units are removed from the unit folder; a running one's and other programs' stay")
    func abandonedTemporaries() throws {
        let (dir, systemd, id) = try scheduledAlarm("units")
        let me = ProcessIdentity.current
        let gone = ProcessIdentity(pid: me.pid, startTime: me.startTime + 1).text
        let name = "voicealarm-\(id.uuidString.lowercased())"
        let planted = [
            ".\(name).timer.\(gone).aaaa.partial", ".\(name).service.\(me.text).bbbb.partial",
            ".other.timer.\(gone).cccc.partial",
        ]
        for file in planted { try Data("[Unit]\n".utf8).write(to: URL(fileURLWithPath: dir.file("units/\(file)"))) }
        #expect(try systemd.alarms().map(\.id) == [id])
        #expect(
            Set((try? FileManager.default.contentsOfDirectory(atPath: dir.file("units"))) ?? [])
                == ["\(name).timer", "\(name).service", ".\(name).service.\(me.text).bbbb.partial", ".other.timer.\(gone).cccc.partial"])
    }

    @Test("An unwritable unit folder is a clear error")
    func unwritable() throws {
        let systemd = try SystemdTimerScheduler(
            unitDirectory: "/proc/voicealarm-units", dataDirectory: "/tmp/d", executable: "/bin/true",
            systemctl: FakeSystemctl(managerRunning: false))
        #expect(throws: SchedulerError.self) { try systemd.schedule(id: UUID(), configuration: weekly) }
    }
}
