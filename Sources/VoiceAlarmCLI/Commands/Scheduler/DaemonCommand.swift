import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm daemon`: the embedded scheduler, ringing its alarms in the foreground.
enum DaemonCommand: Command {
    static let spec = CommandSpec(
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
    static let pollSeconds: Option<Double> = .number(
        "poll-seconds", value: "SECONDS", .open(lower: 0, upper: 3600), default: 15,
        help: "Re-read the alarms at least this often, {range} (default {default})")
    static let maxRingSeconds: Option<Double> = .number(
        "max-ring-seconds", value: "SECONDS", .open(lower: 0, upper: 86_400), default: 600,
        help: "Longest ring, {range} (default {default})")
    static let device: Option<String?> = .text("device", value: "NAME", help: "ALSA device to ring on (default: 'settings device', else 'default')")
    static let ramp: Option<Double?> = .number(
        "ramp", value: "SECONDS", .closed(0...VolumeRamp.maximumSeconds),
        help: "Each ring rises from quiet to full level over this long, {range} (default: 'settings ramp')")

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        // A sounds dir is taken on when a command ends well; the daemon runs until it is stopped.
        if parsed.given(GlobalOptions.soundsDir) {
            let option = GlobalOptions.soundsDir.spec
            throw UsageError(
                "\(option.dashed): the daemon does not move the voice files; give it to a command that ends "
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
            host = try DaemonHost(
                location: try context.location(), options: options,
                say: { notice in if !quiet || notice.isWarning { console.note(notice.line) } }, open: context.library)
        } catch let refusal as DaemonHost.Refusal {
            throw UsageError(refusal.description, command: spec.name)
        }
        let report = host.startReport
        context.present(DaemonJSON(dataDir: host.dataDirectory, alarms: host.watched, reconciled: ReconcileCommand.ReconcileJSON(report))) {}
        context.say(
            "The daemon runs for \(host.dataDirectory) (\(host.watched) alarms; reconciled: \(report.scheduled.count) scheduled, \(report.updated.count) updated, \(report.cancelled.count) cancelled)."
        )
        InterruptHandler.onInterrupt { _ in host.stop() }
        host.run()
        context.say("The daemon stopped.")
        return .success
    }

    /// `daemon --json`, printed once it has started (it then runs until stopped):
    /// `{"dataDir", "alarms", "reconciled": {"scheduled", "updated", "cancelled"}}`.
    struct DaemonJSON: Encodable { var dataDir: String; var alarms: Int; var reconciled: ReconcileCommand.ReconcileJSON }
}
