import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm alarm unskip ALARM [--date D | --all]`: skips taken back.
enum AlarmUnskipCommand: Command {
    static let spec = CommandSpec(
        name: "alarm unskip", summary: "Take back a skip: the earliest (or the pause), a day, or all", arguments: "ALARM",
        minimumArguments: 1, maximumArguments: 1, options: [date, all],
        discussion: """
              Without options, the pause if there is one (Resume), else the earliest day skipped (Undo).
              --date takes back that day (inside a pause, the alarm rings again from that day on); --all
              takes back every skip. Says when the alarm rings next.
            """,
        examples: ["voicealarm alarm unskip 9c41d2e0", "voicealarm alarm unskip 9c41d2e0 --all"])
    static let date: Option<LocalDate?> = .reading("date", value: "YYYY-MM-DD", help: "Ring again on this day") { text in
        guard let date = LocalDate(parsing: text) else { throw OptionRefusal(LocalDate.refusal(text)) }
        return date
    }
    static let all = Flag("all", help: "Take back every skip and the pause")

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let day = try parsed[Self.date]
        if day != nil && parsed[Self.all] {
            throw UsageError("--date and --all exclude each other", command: spec.name, input: "--date")
        }
        let unskip: SkipRules.Unskip = parsed[Self.all] ? .all : day.map { .date($0) } ?? .next
        let service = try context.library()
        let status = try service.alarms.unskip(parsed.arguments[0], unskip)
        AlarmCommands.presentSkips(status, service, context)
        return .success
    }
}
