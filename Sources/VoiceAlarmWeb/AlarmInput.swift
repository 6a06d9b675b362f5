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

    /// An edit as the page sends it (`PUT /api/alarms/{id}`): each field given changes, each
    /// left out stays; `label` or `snooze` sent as null (or "") takes it away.
    static func edit(_ body: EditBody) throws -> AlarmEdit {
        var edit = AlarmEdit()
        if let at = body.at {
            guard let time = AlarmTime(parsing: at) else { throw refusal("at", AlarmTime.refusal(at)) }
            edit.time = time
        }
        if let days = body.days, !days.isEmpty {
            switch Weekdays.parse(days) {
            case .success(let parsed): edit.days = parsed
            case .failure(let error): throw refusal("days", "\(error)")
            }
        }
        if let date = body.date, !date.isEmpty {
            guard let parsed = LocalDate(parsing: date) else { throw refusal("date", LocalDate.refusal(date)) }
            edit.date = parsed
        }
        if edit.days != nil && edit.date != nil { throw refusal("days", "days and date exclude each other: an alarm is weekly or once") }
        if let label = body.label {
            let kept = label.flatMap { $0.isEmpty ? nil : $0 }
            if let kept {
                do { try AlarmLabel.check(kept) } catch { throw refusal("label", "\(error)") }
            }
            edit.label = .some(kept)
        }
        if let snooze = body.snooze {
            if let minutes = snooze, !Snooze.minutes.contains(minutes) {
                throw refusal("snooze", "\(minutes) is not a whole number of minutes from \(Snooze.minutes.lowerBound) to \(Snooze.minutes.upperBound)")
            }
            edit.snoozeMinutes = .some(snooze)
        }
        edit.target = body.target.map(Target.init(name:))
        edit.skipsHolidays = body.skipHolidays
        guard !edit.isEmpty else { throw refusal("at", "nothing to change: send at, days, date, label, snooze or target") }
        return edit
    }

    /// `PUT /api/alarms/{id}`'s body: a field left out stays; `label` and `snooze` sent as null are taken away.
    struct EditBody: Decodable {
        var at: String?, days: String?, date: String?, target: String?, skipHolidays: Bool?
        var label: String??, snooze: Int??

        enum Keys: String, CodingKey { case at, days, date, target, label, snooze, skipHolidays }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Keys.self)
            at = try c.decodeIfPresent(String.self, forKey: .at)
            days = try c.decodeIfPresent(String.self, forKey: .days)
            date = try c.decodeIfPresent(String.self, forKey: .date)
            target = try c.decodeIfPresent(String.self, forKey: .target)
            skipHolidays = try c.decodeIfPresent(Bool.self, forKey: .skipHolidays)
            if c.contains(.label) { label = .some(try c.decodeNil(forKey: .label) ? nil : try c.decode(String.self, forKey: .label)) }
            if c.contains(.snooze) { snooze = .some(try c.decodeNil(forKey: .snooze) ? nil : try c.decode(Int.self, forKey: .snooze)) }
        }
    }

    private static func refusal(_ field: String, _ reason: String) -> WebFailure {
        WebFailure(status: 400, message: "\(field): \(reason)", input: field, code: 64)
    }
}
