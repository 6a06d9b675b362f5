import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles

/// Rings alarms with systemd timers: per alarm `voicealarm-<uuid>.timer` and
/// `voicealarm-<uuid>.service` in the user unit folder, the service running
/// `voicealarm --data-dir DIR ring <uuid> --scheduled`.
///
/// Units are ours when named `voicealarm-<uuid>.*`; each carries its data dir (in `ExecStart`
/// and as `X-VoiceAlarm-DataDir=`), and this backend touches only its own data dir's units plus
/// ours that carry no data dir (orphans). No label or other user text is written into a unit.
/// `Persistent=true` makes systemd start a missed ring at the next boot; `ring --scheduled`
/// then rings only if it is less than ten minutes late, else logs it as missed.
package final class SystemdTimerScheduler: AlarmScheduler, Sendable {
    package let unitDirectory: String
    package let dataDirectory: String
    /// The absolute path of the voicealarm binary the service runs.
    package let executable: String
    /// Where voice files are, named in each service so a ring needs no database to find its sound.
    package let soundsDirectory: String?
    /// The remembered playback device, named in each service (`--device`).
    package let device: String?
    package let timeZone: TimeZone
    let now: @Sendable () -> Date
    let systemctl: any SystemctlRunning

    /// The user unit folder systemd reads: `$XDG_CONFIG_HOME/systemd/user` or `~/.config/systemd/user`.
    package static var defaultUnitDirectory: String {
        let environment = ProcessInfo.processInfo.environment
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config"
        return config + "/systemd/user"
    }

    /// - Parameter soundsDirectory: where voice files are; when given, each service names its
    ///   alarm's voice file (`--sound`), so a ring can play it even when the library cannot be read.
    package init(
        unitDirectory: String, dataDirectory: String, executable: String, soundsDirectory: String? = nil,
        device: String? = nil, timeZone: TimeZone = .current,
        now: @escaping @Sendable () -> Date = Date.init, systemctl: any SystemctlRunning = Systemctl()
    ) throws {
        for path in [dataDirectory, executable] + [soundsDirectory].compactMap({ $0 }) where !Self.isSafe(path) {
            throw SchedulerError.unsafePath(path)
        }
        self.unitDirectory = unitDirectory
        self.dataDirectory = dataDirectory
        self.soundsDirectory = soundsDirectory
        self.device = device.flatMap { Self.isSafe($0) ? $0 : nil }
        self.executable = executable
        self.timeZone = timeZone
        self.now = now
        self.systemctl = systemctl
    }

    package var backend: SchedulerBackend { .systemd }

    package var systemdUnitDirectory: String? { unitDirectory }

    /// The same backend, its units naming another playback device.
    package func carrying(device: String?) throws -> any AlarmScheduler {
        try SystemdTimerScheduler(
            unitDirectory: unitDirectory, dataDirectory: dataDirectory, executable: executable,
            soundsDirectory: soundsDirectory, device: device, timeZone: timeZone, now: now, systemctl: systemctl)
    }

    /// The same backend, its services naming voice files in another sounds dir.
    package func relocating(soundsDirectory: String) throws -> any AlarmScheduler {
        try SystemdTimerScheduler(
            unitDirectory: unitDirectory, dataDirectory: dataDirectory, executable: executable,
            soundsDirectory: soundsDirectory, device: device, timeZone: timeZone, now: now, systemctl: systemctl)
    }

    /// The list, each time it changes.
    package func updates(checkingEvery interval: Duration = .seconds(5)) -> AsyncStream<[ScheduledAlarm]> {
        alarmUpdates(checkingEvery: interval) { [self] in try alarms() }
    }

    /// Whether a user manager runs (`systemctl --user` can talk to it).
    package var userManagerRunning: Bool { systemctl.user(["show-environment"]).status == 0 }

    /// Activation goes through `systemctl` only for units where systemd looks for them.
    var activates: Bool { unitDirectory == Self.defaultUnitDirectory && userManagerRunning }

    /// What stops these alarms from ringing; empty when nothing does.
    package func problems() -> [SchedulerProblem] {
        guard userManagerRunning else { return [.noUserManager(unitDirectory: unitDirectory)] }
        var problems: [SchedulerProblem] = []
        if unitDirectory != Self.defaultUnitDirectory {
            problems.append(.unitDirectoryNotRead(unitDirectory: unitDirectory, systemdReads: Self.defaultUnitDirectory))
        }
        if !systemctl.lingering() { problems.append(.lingeringOff) }
        return problems
    }

    package func schedule(id: UUID, configuration: AlarmConfiguration) throws {
        try makeUnitDirectory()
        let (timer, service) = unitTexts(id: id, configuration: configuration)
        try write(service, to: unitPath(id, "service"))
        try write(timer, to: unitPath(id, "timer"))
        if activates {
            do {
                try run(["daemon-reload"])
                try run(["enable", "--now", "voicealarm-\(Self.name(id)).timer"])
            } catch {
                // A timer systemd did not take is not kept as if it would ring: the next command
                // finds the alarm not held and tries again, and doctor says so meanwhile. One that
                // cannot be removed would pass for held: the error then says so too.
                do { try FileSystem.remove(ifPresent: unitPath(id, "timer")) } catch let left {
                    throw SchedulerError.unitDirectory(
                        path: unitDirectory,
                        reason: "cannot remove \((left.path as NSString).lastPathComponent) (\(left.reason)) after: \(error)")
                }
                throw error
            }
        }
    }

    package func cancel(id: UUID) throws {
        if activates { _ = systemctl.user(["disable", "--now", "voicealarm-\(Self.name(id)).timer"]) }
        try removeUnits(of: id)
        if activates { try run(["daemon-reload"]) }
    }

    /// Removes an alarm's timer and service (either may already be gone). Both are tried; a unit
    /// that stays (a read-only unit folder) is an error, as systemd would go on ringing it: the
    /// caller warns that the alarm could not be cancelled, and a later reconcile tries again.
    private func removeUnits(of id: UUID) throws {
        var failure: SystemError?
        for kind in ["timer", "service"] {
            do { try FileSystem.remove(ifPresent: unitPath(id, kind)) } catch { failure = failure ?? error }
        }
        if let failure {
            throw SchedulerError.unitDirectory(path: unitDirectory, reason: "cannot remove \((failure.path as NSString).lastPathComponent): \(failure.reason)")
        }
    }

    package func alarms() throws -> [ScheduledAlarm] {
        try units().map { ScheduledAlarm(id: $0.id, configuration: $0.configuration ?? Self.unreadable) }
    }

    /// False when the unit files differ from what would be written now: edited, corrupt, written
    /// by another version, or holding a DST gap day that has passed.
    package func isCurrent(_ alarm: ScheduledAlarm) -> Bool {
        // This alarm's own files only: asking of every alarm reads each unit once, not the folder each time.
        guard let unit = unit(named: (unitPath(alarm.id, "timer") as NSString).lastPathComponent),
            let configuration = unit.configuration
        else { return false }
        let (timer, service) = unitTexts(id: alarm.id, configuration: configuration)
        return unit.timer == timer && FileSystem.text(unitPath(alarm.id, "service")) == service
    }

    /// The two unit files for an alarm.
    package func unitTexts(id: UUID, configuration: AlarmConfiguration) -> (timer: String, service: String) {
        let name = Self.name(id)
        // Sorted keys: JSONEncoder's key order varies between calls, and the text must not.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let encoded = (try? encoder.encode(configuration))?.base64EncodedString() ?? ""
        let calendar = SystemdCalendar.expressions(for: configuration, in: timeZone, now: now())
        let header = "# Written by VoiceAlarm for alarm \(name); VoiceAlarm rewrites it and edits are lost.\n"
        let timer =
            header + """
                [Unit]
                Description=VoiceAlarm alarm \(name)
                X-VoiceAlarm-DataDir=\(dataDirectory)
                X-VoiceAlarm-Configuration=\(encoded)

                [Timer]
                \(calendar.map { "OnCalendar=\($0)" }.joined(separator: "\n"))
                AccuracySec=1s
                Persistent=true
                Unit=voicealarm-\(name).service

                [Install]
                WantedBy=timers.target

                """
        var words = [executable, "--data-dir", dataDirectory, "ring", name, "--scheduled"]
        if let soundsDirectory, case .named(let file) = configuration.sound, Self.isSafe(file) { words += ["--sound", "\(soundsDirectory)/\(file)"] }
        if let device { words += ["--device", device] }
        let command = words.map(Self.quoted).joined(separator: " ")
        let service =
            header + """
                [Unit]
                Description=VoiceAlarm alarm \(name) ringing
                X-VoiceAlarm-DataDir=\(dataDirectory)

                [Service]
                Type=simple
                ExecStart=\(command)

                """
        return (timer, service)
    }

    // MARK: Files

    struct Unit {
        var id: UUID
        var timer: String
        var configuration: AlarmConfiguration?
    }

    /// Our timers in the unit folder that belong to this data dir, or to none. On the way, the
    /// hidden temporaries of our units that a killed command left there are removed (systemd
    /// ignores them, but nothing else would ever remove them from the person's unit folder).
    func units() throws -> [Unit] {
        guard FileManager.default.fileExists(atPath: unitDirectory) else { return [] }
        FileSystem.removeAbandonedTemporaries(in: unitDirectory, named: "voicealarm-")
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: unitDirectory) } catch {
            throw SystemError(foundation: error, operation: "list", path: unitDirectory)
        }
        return names.sorted().compactMap(unit(named:))
    }

    /// The timer `name` in the unit folder when it is one of ours for this data dir (or for none).
    private func unit(named name: String) -> Unit? {
        guard name.hasPrefix("voicealarm-"), name.hasSuffix(".timer"),
            let id = UUID(uuidString: String(name.dropFirst("voicealarm-".count).dropLast(".timer".count))),
            FileSystem.kind(of: "\(unitDirectory)/\(name)") != .missing
        else { return nil }
        let text = FileSystem.text("\(unitDirectory)/\(name)") ?? ""
        let fields = Self.fields(text)
        if let owner = fields["X-VoiceAlarm-DataDir"], owner != dataDirectory { return nil }
        let configuration = fields["X-VoiceAlarm-Configuration"]
            .flatMap { Data(base64Encoded: $0) }
            .flatMap { try? JSONDecoder().decode(AlarmConfiguration.self, from: $0) }
        return Unit(id: id, timer: text, configuration: configuration)
    }

    /// What a corrupt unit of ours reports: never equal to a real configuration, so reconcile rewrites or removes it.
    static let unreadable = AlarmConfiguration(schedule: .fixed(Date(timeIntervalSince1970: 0)), sound: .named("(unreadable unit)"))

    static func fields(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("X-VoiceAlarm-") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { result[String(parts[0])] = String(parts[1]) }
        }
        return result
    }

    private func unitPath(_ id: UUID, _ kind: String) -> String { "\(unitDirectory)/voicealarm-\(Self.name(id)).\(kind)" }

    private func makeUnitDirectory() throws {
        do { try FileSystem.makeDirectory(unitDirectory, permissions: 0o755) } catch {
            throw SchedulerError.unitDirectory(path: unitDirectory, reason: "cannot be created (\(error.reason))")
        }
        guard FileSystem.isWritableDirectory(unitDirectory) else { throw SchedulerError.unitDirectory(path: unitDirectory, reason: "is not writable") }
    }

    /// Writes atomically, so systemd never reads half a unit.
    private func write(_ text: String, to path: String) throws {
        do { try FileSystem.atomicWrite(Data(text.utf8), to: path) } catch let error as SystemError {
            throw SchedulerError.unitDirectory(path: unitDirectory, reason: "cannot write \((path as NSString).lastPathComponent): \(error.reason)")
        }
    }

    private func run(_ arguments: [String]) throws {
        let result = systemctl.user(arguments)
        guard result.status == 0 else { throw SchedulerError.systemctl(arguments: ["--user"] + arguments, status: result.status, output: result.output) }
    }

    // MARK: Escaping

    static func name(_ id: UUID) -> String { id.uuidString.lowercased() }

    /// One `ExecStart=` word: double-quoted, with `\` and `"` escaped, `%` doubled (specifiers)
    /// and `$` doubled (variables), so the word reaches the program exactly as given.
    package static func quoted(_ word: String) -> String {
        var escaped = ""
        for character in word {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "%": escaped += "%%"
            case "$": escaped += "$$"
            default: escaped.append(character)
            }
        }
        return "\"" + escaped + "\""
    }

    package static func isSafe(_ path: String) -> Bool {
        !PrintableText.hasControlCharacters(path) && !path.hasSuffix("\\")
    }
}
