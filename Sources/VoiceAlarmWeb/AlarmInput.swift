import Foundation
import VoiceAlarmCore

/// A new alarm as the page sends it, read with the command line's rules and words: a malformed
/// field is a 400 naming it, before the library is asked.
struct AlarmInput {
    var target: Target
    var time: AlarmTime
    var days: Weekdays
    var date: LocalDate?
    var label: String?
    var snooze: Int?

    init(target: String, at: String, days: String?, date: String?, label: String?, snooze: Int?) throws {
        guard let time = AlarmTime(parsing: at) else { throw Self.refusal("at", AlarmTime.refusal(at)) }
        var weekdays: Weekdays = []
        if let days, !days.isEmpty {
            switch Weekdays.parse(days) {
            case .success(let parsed): weekdays = parsed
            case .failure(let error): throw Self.refusal("days", "\(error)")
            }
        }
        var once: LocalDate?
        if let date, !date.isEmpty {
            guard let parsed = LocalDate(parsing: date) else { throw Self.refusal("date", LocalDate.refusal(date)) }
            once = parsed
        }
        if !weekdays.isEmpty && once != nil { throw Self.refusal("days", "days and date exclude each other: an alarm is weekly or once") }
        if let snooze, !Snooze.minutes.contains(snooze) {
            throw Self.refusal("snooze", "\(snooze) is not a whole number of minutes from \(Snooze.minutes.lowerBound) to \(Snooze.minutes.upperBound)")
        }
        let label = label.flatMap { $0.isEmpty ? nil : $0 }
        if let label {
            do { try AlarmLabel.check(label) } catch { throw Self.refusal("label", "\(error)") }
        }
        self.target = Target(name: target)
        self.time = time
        self.days = weekdays
        self.date = once
        self.label = label
        self.snooze = snooze
    }

    private static func refusal(_ field: String, _ reason: String) -> WebFailure {
        WebFailure(status: 400, message: "\(field): \(reason)", input: field, code: 64)
    }
}
