import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm holidays import FILE.ics`: the holidays of an iCalendar file, for alarms that skip them.
enum HolidaysImportCommand: Command {
    static let spec = CommandSpec(
        name: "holidays import", summary: "Import the holidays of an iCalendar file (.ics) for alarms that skip them", arguments: "FILE.ics",
        minimumArguments: 1, maximumArguments: 1, options: [name, years],
        discussion: """
              Reads a public-holiday calendar or any iCalendar export with libical: each event's days (an
              all-day event of several days gives each), recurring events expanded over the years
              imported (this year and the next unless --years; a rule that never ends stops there), their
              EXDATEs left out. Nothing is fetched from the network. At most 4 MB, 5000 events and 5000
              days a file. Imported again under the same name, a calendar is replaced whole. Alarms added
              or edited with --skip-holidays do not ring on these days, and are re-scheduled at once.
            """,
        examples: [
            "voicealarm holidays import ~/Downloads/holidays-de.ics", "voicealarm holidays import school.ics --name school --years 2026-2027",
        ])
    static let name: Option<String?> = .text("name", value: "NAME", help: "The calendar's name (default: the file's name without .ics)") { text in
        text.isEmpty || PrintableText.hasControlCharacters(text) ? "a name of printable characters" : nil
    }
    static let years: Option<ClosedRange<Int>?> = .reading("years", value: "YYYY[-YYYY]", help: "The years to import (default: this year and the next)") {
        text in
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard (1...2).contains(parts.count), let first = parts[0], let last = parts.last ?? nil, (1970...2199).contains(first), first <= last,
            last <= 2199, last - first < 10
        else { throw OptionRefusal("'\(text)' is not a year or a range of at most ten years (2026, 2026-2027)") }
        return first...last
    }

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let calendarName = try parsed[Self.name], span = try parsed[Self.years]
        let service = try context.library()
        let imported = try service.holidays.importCalendar(
            LibraryAccess.absolute(parsed.arguments[0]), name: calendarName, years: span)
        context.present(imported.holidays.map(HolidayJSON.init)) { context.console.result(imported.calendar) }
        let years = imported.years.count == 1 ? "\(imported.years.lowerBound)" : "\(imported.years.lowerBound)–\(imported.years.upperBound)"
        let count = imported.holidays.count
        context.say(
            "\(imported.replaced ? "Replaced" : "Imported") '\(imported.calendar)': \(count) holiday\(count == 1 ? "" : "s") in \(years)"
                + (imported.rescheduled.isEmpty
                    ? "; no alarm skips holidays yet ('alarm edit ID --skip-holidays on')."
                    : "; \(imported.rescheduled.count) alarm\(imported.rescheduled.count == 1 ? "" : "s") that skip holidays re-scheduled."))
        return .success
    }
}
