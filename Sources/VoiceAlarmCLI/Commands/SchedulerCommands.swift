import Foundation
import VoiceAlarm
import VoiceAlarmDocuments
import VoiceAlarmCore

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
        options: [pollSeconds, maxRingSeconds, device, ramp],
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

    static let pollSeconds: Option<Double> = .number("poll-seconds", value: "SECONDS", .open(lower: 0, upper: 3600), default: 15,
                                                     help: "Re-read the alarms at least this often, {range} (default {default})")
    static let maxRingSeconds: Option<Double> = .number("max-ring-seconds", value: "SECONDS", .open(lower: 0, upper: 86_400), default: 600,
                                                        help: "Longest ring, {range} (default {default})")
    static let device: Option<String?> = .text("device", value: "NAME", help: "ALSA device to ring on (default: 'settings device', else 'default')")
    static let ramp: Option<Double?> = .number("ramp", value: "SECONDS", .closed(0...VolumeRamp.maximumSeconds),
                                               help: "Each ring rises from quiet to full level over this long, {range} (default: 'settings ramp')")

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        switch parsed.command {
        case reconcileSpec.name:
            let report = try context.library().sync.reconcile()
            context.present(ReconcileJSON(report)) {
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
        // A sounds dir is taken on when a command ends well; the daemon runs until it is stopped.
        if parsed.given(GlobalOptions.soundsDir) {
            let option = GlobalOptions.soundsDir.spec
            throw UsageError("\(option.dashed): the daemon does not move the voice files; give it to a command that ends "
                             + "('voicealarm \(option.usage) reconcile'), then start the daemon", command: parsed.command, input: option.dashed)
        }
        var options = DaemonHost.Options()
        options.pollSeconds = try parsed[Self.pollSeconds]
        options.maxRingSeconds = try parsed[Self.maxRingSeconds]
        options.device = try parsed[Self.device]
        if let ramp = try parsed[Self.ramp] { options.rampSeconds = ramp }
        let console = context.console, quiet = context.quiet
        let host: DaemonHost
        do {
            host = try DaemonHost(location: try context.location(), options: options,
                                  say: { notice in if !quiet || notice.isWarning { console.note(notice.line) } }, open: context.library)
        } catch let refusal as DaemonHost.Refusal {
            throw UsageError(refusal.description, command: daemonSpec.name)
        }
        let report = host.startReport
        context.present(DaemonJSON(dataDir: host.dataDirectory, alarms: host.watched, reconciled: ReconcileJSON(report))) {}
        context.say("The daemon runs for \(host.dataDirectory) (\(host.watched) alarms; reconciled: \(report.scheduled.count) scheduled, \(report.updated.count) updated, \(report.cancelled.count) cancelled).")
        InterruptHandler.onInterrupt { _ in host.stop() }
        host.run()
        context.say("The daemon stopped.")
        return .success
    }

    private static func doctor(_ context: CommandContext) throws -> ExitCode {
        let report: Doctor.Report
        do {
            report = try Doctor(service: context.library()).examine(location: try context.location())
        } catch let error where !(error is UsageError) {
            report = Doctor.examine(unopened: try context.location(), because: error)
        }
        context.present(DoctorJSON(report)) {
            if let problem = report.libraryProblem { context.console.result("library: cannot be opened: \(problem)") }
            if let backend = report.backend { context.console.result("scheduler: \(backend.rawValue)") }
            if let service = report.daemonService { context.console.result("daemon service: \(service)") }
            if let service = report.webService { context.console.result("web service: \(service)") }
            context.console.result("data dir: \(report.dataDirectory)")
            context.console.result("sounds dir: \(report.soundsDirectory)")
            if let units = report.unitDirectory { context.console.result("unit dir: \(units)") }
            if let tone = report.defaultTone { context.console.result("default tone: \(tone)") }
            if report.libraryProblem == nil {
                context.console.result("alarms: \(report.alarms) (\(report.live) still to ring, \(report.withVoice) with your voice)")
            }
            for alarm in report.onDefaultTone { context.console.result("  \(alarm.id): default tone (\(alarm.reason))") }
            if report.deviceOpens { context.console.result("sound device '\(report.device)': opens") }
            context.console.result(report.cannotWake == nil ? "wake from suspend: yes (\(report.wakeClock))" : "wake from suspend: no (\(report.wakeClock))")
        }
        if let reason = report.cannotWake { context.console.note("note: alarms cannot wake this machine from suspend: \(reason)") }
        let opens = report.libraryProblem == nil
        for problem in report.problems { context.console.note("warning: \(problem.sentence(libraryOpens: opens))") }
        if !report.fails {
            context.say(report.problems.isEmpty ? "Everything needed to ring the alarms is in place."
                                                : "Everything needed to ring the alarms is in place; the warnings above are worth a look.")
            return .success
        }
        let count = report.problems.filter(\.isFailure).count
        context.console.note("error: doctor: \(count == 1 ? "one thing stands" : "\(count) things stand") between the alarms and their ringing; "
                             + "the warnings above say what to do")
        return .failure
    }


    /// `daemon --json`, printed once it has started (it then runs until stopped):
    /// `{"dataDir", "alarms", "reconciled": {"scheduled", "updated", "cancelled"}}`.
    struct DaemonJSON: Encodable { var dataDir: String; var alarms: Int; var reconciled: ReconcileJSON }

    struct ReconcileJSON: Encodable {
        var scheduled: [String], updated: [String], cancelled: [String]
        init(_ report: ReconcileReport) {
            scheduled = report.scheduled.map { $0.uuidString.lowercased() }
            updated = report.updated.map { $0.uuidString.lowercased() }
            cancelled = report.cancelled.map { $0.uuidString.lowercased() }
        }
    }
}
