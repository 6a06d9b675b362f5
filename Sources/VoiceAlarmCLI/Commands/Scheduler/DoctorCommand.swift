import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm doctor`: whether anything will ring the alarms, and what to fix.
enum DoctorCommand: Command {
    static let spec = CommandSpec(
        name: "doctor", summary: "Say whether anything will ring the alarms, and what to fix", arguments: "",
        minimumArguments: 0, maximumArguments: 0, options: [],
        examples: ["voicealarm doctor", "voicealarm --scheduler systemd doctor"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let report: Doctor.Report
        do {
            report = try Doctor(service: context.library()).examine(location: try context.location())
        } catch let error where !(error is UsageError) {
            report = Doctor.examine(unopened: try context.location(), because: error)
        }
        context.present(DoctorJSON(report)) {
            if let problem = report.libraryProblem { context.console.result("library: cannot be opened: \(problem)") }
            if let backend = report.backend { context.console.result("scheduler: \(backend.rawValue)") }
            if let service = report.daemonService { context.console.result("daemon service: \(service.words(web: false))") }
            if let service = report.webService { context.console.result("web service: \(service.words(web: true))") }
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
        if let reason = report.cannotWake { context.console.note("note: alarms cannot wake this machine from suspend: \(reason.sentence())") }
        let opens = report.libraryProblem == nil
        for problem in report.problems { context.console.note("warning: \(problem.sentence(libraryOpens: opens))") }
        if !report.fails {
            context.say(
                report.problems.isEmpty
                    ? "Everything needed to ring the alarms is in place."
                    : "Everything needed to ring the alarms is in place; the warnings above are worth a look.")
            return .success
        }
        let count = report.problems.filter(\.isFailure).count
        context.console.note(
            "error: doctor: \(count == 1 ? "one thing stands" : "\(count) things stand") between the alarms and their ringing; "
                + "the warnings above say what to do")
        return .failure
    }
}
