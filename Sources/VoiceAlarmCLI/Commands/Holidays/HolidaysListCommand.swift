import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm holidays list [--year Y]`: the holidays imported.
enum HolidaysListCommand: Command {
    static let spec = CommandSpec(
        name: "holidays list", summary: "List the holidays imported", arguments: "", minimumArguments: 0, maximumArguments: 0,
        options: [year], discussion: "  One line each: the date, its name, and the calendar it came from. --json: [{\"date\", \"name\", \"calendar\"}].",
        examples: ["voicealarm holidays list", "voicealarm holidays list --year 2027 --json"])
    static let year: Option<Int?> = .reading("year", value: "YYYY", help: "Only this year's") { text in
        guard let year = Int(text), (1970...2199).contains(year) else { throw OptionRefusal("'\(text)' is not a year") }
        return year
    }

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let year = try parsed[Self.year]
        let holidays = try context.library().holidays.list(year: year)
        context.present(holidays.map(HolidayJSON.init)) {
            for holiday in holidays {
                context.console.result(context.fitted("\(holiday.date)  \(holiday.name)  (\(holiday.calendar))", context.lineWidth))
            }
            if holidays.isEmpty {
                context.say(year == nil ? "No holidays imported: 'voicealarm holidays import FILE.ics' imports some." : "No holidays in \(year!).")
            }
        }
        return .success
    }
}
