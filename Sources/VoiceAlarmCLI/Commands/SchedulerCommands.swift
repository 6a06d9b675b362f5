import Foundation
import VoiceAlarm
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmScheduling

/// `voicealarm reconcile`, `daemon`, `doctor`: keeping the scheduler in step, and ringing.
enum SchedulerCommands {
    static let reconcileSpec = CommandSpec(
        name: "reconcile", summary: "Make the scheduler hold exactly the library's alarms", arguments: "",
        minimumArguments: 0, maximumArguments: 0, options: [],
        discussion: """
          Schedules stored alarms the scheduler lacks, re-schedules those it holds with a stale sound
          or schedule (or an edited or corrupt unit), cancels ours it holds that the library does not
          know, and rebuilds voice files that should exist and do not. Running it again does nothing.
          --json prints {"scheduled": [...], "updated": [...], "cancelled": [...]}.
        """,
        examples: ["voicealarm reconcile --json", "voicealarm --scheduler systemd reconcile"])
    static let daemonSpec = CommandSpec(
        name: "daemon", summary: "Ring the embedded scheduler's alarms (runs in the foreground)", arguments: "",
        minimumArguments: 0, maximumArguments: 0,
        options: [
            OptionSpec("poll-seconds", value: "SECONDS", help: "Re-read the alarms at least this often (default 15)"),
            OptionSpec("max-ring-seconds", value: "SECONDS", help: "Longest ring (default 600)"),
            OptionSpec("device", value: "NAME", help: "ALSA device to ring on (default 'default')"),
        ],
        discussion: """
          Reconciles at start, then sleeps until the next alarm and rings it (each ring is a
          'voicealarm ring' process, so 'voicealarm stop' stops it). Alarms added, removed or rebuilt
          while it runs are picked up without a restart. Alarms that came due while it could not look
          ring if less than 10 minutes late, and are logged as missed otherwise. Stops on SIGTERM/Ctrl-C.
        """,
        examples: ["voicealarm daemon", "voicealarm --data-dir ~/alarms daemon --device plughw:1,0"])
    static let doctorSpec = CommandSpec(
        name: "doctor", summary: "Say whether anything will ring the alarms, and what to fix", arguments: "",
        minimumArguments: 0, maximumArguments: 0, options: [],
        examples: ["voicealarm doctor", "voicealarm --scheduler systemd doctor"])

    static let specs = [reconcileSpec, daemonSpec, doctorSpec]

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        switch parsed.command {
        case reconcileSpec.name:
            let report = try context.library().reconcile()
            if context.json {
                context.console.result(JSONOutput.encode(ReconcileJSON(report)))
            } else {
                for (word, ids) in [("scheduled", report.scheduled), ("updated", report.updated), ("cancelled", report.cancelled)] {
                    for id in ids { context.console.result("\(word) \(id.uuidString.lowercased())") }
                }
            }
            let count = report.scheduled.count + report.updated.count + report.cancelled.count
            context.say(count == 0 ? "The scheduler already holds exactly the library's alarms."
                        : "Scheduled \(report.scheduled.count), updated \(report.updated.count), cancelled \(report.cancelled.count).")
            return .success
        case daemonSpec.name:
            return try daemon(parsed, context)
        case doctorSpec.name:
            return try doctor(context)
        default:
            preconditionFailure("unhandled \(parsed.command ?? "")")
        }
    }

    private static func daemon(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let poll = try parsed.number("poll-seconds", exclusiveUpper: 3600, exclusiveLower: 0, default: 15)
        let maxRing = try parsed.number("max-ring-seconds", exclusiveUpper: 86_400, exclusiveLower: 0, default: 600)
        let device = parsed.value("device") ?? "default"
        let service = try context.library()
        guard let scheduler = service.scheduler as? EmbeddedScheduler else {
            throw UsageError("the daemon rings the embedded scheduler's alarms; this data dir uses systemd timers", command: daemonSpec.name)
        }
        let dataDirectory = service.store.dataDirectory
        let lock = try DaemonLock(dataDirectory: dataDirectory)
        let report = try service.reconcile()
        let events = EventLog(dataDirectory: dataDirectory)
        context.say("The daemon runs for \(dataDirectory) (\(try scheduler.alarms().count) alarms; reconciled: \(report.scheduled.count) scheduled, \(report.updated.count) updated, \(report.cancelled.count) cancelled).")
        let launcher = RingLauncher(executable: LibraryAccess.executablePath(), dataDirectory: dataDirectory,
                                    device: device, maxSeconds: maxRing)
        let console = context.console, quiet = context.quiet
        let say: @Sendable (String) -> Void = { line in if !quiet { console.note(line) } }
        let lookFile = "\(dataDirectory)/daemon-last-look"
        let lastLook = (try? String(contentsOfFile: lookFile, encoding: .utf8))
            .flatMap { TimeInterval($0.trimmingCharacters(in: .whitespacesAndNewlines)) }.map(Date.init(timeIntervalSince1970:))
        let daemon = AlarmDaemon(
            clock: SystemWallClock(), timeZone: service.timeZone, pollInterval: poll,
            alarms: { try EmbeddedScheduler(dataDirectory: dataDirectory).alarms() },
            ring: { alarm, due in
                say("Ringing alarm \(alarm.id.uuidString.lowercased()) (due \(Report.iso(due, .current))).")
                launcher.ring(alarm.id)
            },
            missed: { alarm, due, late in
                let message = "missed alarm \(alarm.id.uuidString.lowercased()): due \(Report.iso(due, .current)), \(Int(late / 60)) min late, more than \(Int(MissedAlarmPolicy.window / 60)) min; not ringing"
                say(message)
                events.record(message)
            },
            trouble: { say("warning: the daemon could not read its alarms: \($0)") },
            since: lastLook,
            looked: { try? String($0.timeIntervalSince1970).write(toFile: lookFile, atomically: true, encoding: .utf8) })
        let task = Task { try await daemon.run() }
        InterruptHandler.onInterrupt { _ in task.cancel() }
        let done = DispatchSemaphore(value: 0)
        Task { _ = try? await task.value; done.signal() }
        done.wait()
        withExtendedLifetime(lock) {}
        context.say("The daemon stopped.")
        return .success
    }

    private static func doctor(_ context: CommandContext) throws -> ExitCode {
        let service = try context.library()
        var problems = service.scheduler.problems()
        let backend = service.scheduler is EmbeddedScheduler ? "embedded" : "systemd"
        context.console.result("scheduler: \(backend)")
        context.console.result("data dir: \(service.store.dataDirectory)")
        context.console.result("sounds dir: \(service.sounds.path)")
        if let systemd = service.scheduler as? SystemdTimerScheduler { context.console.result("unit dir: \(systemd.unitDirectory)") }
        do {
            context.console.result("default tone: \(try DefaultTone.ensure(in: service.store.dataDirectory))")
        } catch {
            problems.append("the default tone cannot be made: \(error)")
        }
        let statuses = try service.alarmStatuses()
        let live = statuses.filter { $0.next != nil }
        context.console.result("alarms: \(statuses.count) (\(live.count) still to ring, \(live.filter { $0.sound.reason == nil }.count) with your voice)")
        for status in live where status.sound.reason != nil && status.alarm.voice {
            context.console.result("  \(status.alarm.idString): default tone (\(status.sound.reason!))")
        }
        do {
            _ = try AlsaPlayback(device: "default", sampleRate: 44_100)
            context.console.result("sound device 'default': opens")
        } catch {
            problems.append("the sound device 'default' does not open (\(error)); rings will fail unless --device names one that does")
        }
        for problem in problems { context.console.note("warning: \(problem)") }
        if problems.isEmpty { context.say("Everything needed to ring the alarms is in place.") }
        return problems.isEmpty ? .success : .failure
    }

    struct ReconcileJSON: Encodable {
        var scheduled: [String], updated: [String], cancelled: [String]
        init(_ report: AlarmService.ReconcileReport) {
            scheduled = report.scheduled.map { $0.uuidString.lowercased() }
            updated = report.updated.map { $0.uuidString.lowercased() }
            cancelled = report.cancelled.map { $0.uuidString.lowercased() }
        }
    }
}

/// Starts `voicealarm ring ID --scheduled` processes for the daemon, without waiting for them.
final class RingLauncher: @unchecked Sendable {
    let executable: String, dataDirectory: String, device: String, maxSeconds: Double
    private let lock = NSLock()
    private var running: [Process] = []

    init(executable: String, dataDirectory: String, device: String, maxSeconds: Double) {
        self.executable = executable
        self.dataDirectory = dataDirectory
        self.device = device
        self.maxSeconds = maxSeconds
    }

    func ring(_ id: UUID) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--data-dir", dataDirectory, "ring", id.uuidString.lowercased(), "--scheduled",
                             "--device", device, "--max-seconds", "\(maxSeconds)"]
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            FileHandle.standardError.write(Data("error: ALARM MADE NO SOUND: cannot start ring for \(id.uuidString.lowercased()): \(error)\n".utf8))
            EventLog(dataDirectory: dataDirectory).record("ALARM MADE NO SOUND: cannot start ring for \(id.uuidString.lowercased()): \(error)")
            return
        }
        lock.withLock {
            running.removeAll { !$0.isRunning }
            running.append(process)
        }
    }
}
