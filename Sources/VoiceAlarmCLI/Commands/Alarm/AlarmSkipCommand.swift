import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm alarm skip ALARM [--date D] [--until D]`: rings the alarm will not ring.
enum AlarmSkipCommand: Command {
    static let spec = CommandSpec(
        name: "alarm skip", summary: "Skip the alarm's next ring, or given days, or every ring until a day", arguments: "ALARM",
        minimumArguments: 1, maximumArguments: 1, options: [dates, until],
        discussion: """
              Without options, the next ring is skipped (tomorrow's, say). --date skips that day (repeat it,
              or give a comma-separated list); --until skips every ring through that day (a week away).
              Days are local dates up to a year ahead on which the alarm rings. The alarm keeps its id,
              settings and voice file; the scheduler rings at the true next ring (a systemd timer's next
              elapse is it), the daemon logs each skipped ring as its time passes, and skips that have
              passed are forgotten. A one-off is not skipped: turn it off or remove it. 'alarm unskip'
              takes skips back. Says when the alarm rings next.
            """,
        examples: [
            "voicealarm alarm skip 9c41d2e0", "voicealarm alarm skip 9c41d2e0 --date 2026-12-24 --date 2026-12-31",
            "voicealarm alarm skip 9c41d2e0 --until 2026-12-14",
        ])
    static let dates: Option<[LocalDate]?> = Option<[LocalDate]?>.reading(
        "date", value: "YYYY-MM-DD", help: "Skip the ring on this day (repeatable)"
    ) { text in
        try text.split(separator: ",", omittingEmptySubsequences: false).map { part in
            guard let date = LocalDate(parsing: String(part)) else { throw OptionRefusal(LocalDate.refusal(String(part))) }
            return date
        }
    }.repeatable()
    static let until: Option<LocalDate?> = .reading("until", value: "YYYY-MM-DD", help: "Skip every ring through this day (a pause)") { text in
        guard let date = LocalDate(parsing: text) else { throw OptionRefusal(LocalDate.refusal(text)) }
        return date
    }

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let days = try parsed[Self.dates], through = try parsed[Self.until]
        if days != nil && through != nil {
            throw UsageError("--date and --until exclude each other: skip days, or every ring through one", command: spec.name, input: "--date")
        }
        let skip: SkipRules.Skip = days.map { .dates($0) } ?? through.map { .until($0) } ?? .next
        let service = try context.library()
        let status = try service.alarms.skip(parsed.arguments[0], skip)
        AlarmCommands.presentSkips(status, service, context)
        return .success
    }
}
