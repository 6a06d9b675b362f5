import Foundation
import VoiceAlarm
import VoiceAlarmCore

/// `{"id", "target", "time", "days", "date", "label", "on", "voice", "sound", "soundReason", "next"}`
/// (`days` as a list of day names, `[]` for a one-off; `next` null for an alarm that is off, and
/// after the days skipped: `skipped`, the days ahead it does not ring, and `pausedThrough`).
package struct AlarmJSON: Encodable {
    package var id: String, target: String, time: String, days: [String], date: String?, label: String?
    package var on: Bool, voice: Bool, sound: String, soundReason: String?, next: String?, spokenStandIns: [String]
    package var snooze: Int?, snoozedUntil: String?
    package var skipped: [String], pausedThrough: String?, skipsHolidays: Bool

    package init(_ status: AlarmStatus, _ timeZone: TimeZone) {
        let alarm = status.alarm
        id = alarm.idString
        target = alarm.target.description
        time = alarm.time.description
        days = alarm.days.isEmpty ? [] : alarm.days.list.split(separator: ",").map(String.init)
        date = alarm.date?.description
        label = alarm.label
        on = alarm.isOn
        voice = alarm.voice
        sound = status.sound.soundName
        soundReason = status.sound.reason
        next = status.next.map { LocalTimeText.iso($0, timeZone) }
        spokenStandIns = status.spokenStandIns.map { $0.uuidString.lowercased() }
        snooze = alarm.snoozeMinutes
        snoozedUntil = status.snoozedUntil.map { LocalTimeText.iso($0, timeZone) }
        skipped = status.skips.dates.sorted().map(\.description)
        pausedThrough = status.skips.through?.description
        skipsHolidays = alarm.skipsHolidays
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(id, forKey: .id); try c.encode(target, forKey: .target); try c.encode(time, forKey: .time)
        try c.encode(days, forKey: .days); try c.encode(date, forKey: .date); try c.encode(label, forKey: .label)
        try c.encode(on, forKey: .on); try c.encode(voice, forKey: .voice); try c.encode(sound, forKey: .sound)
        try c.encode(soundReason, forKey: .soundReason); try c.encode(next, forKey: .next)
        try c.encode(spokenStandIns, forKey: .spokenStandIns)
        try c.encode(snooze, forKey: .snooze); try c.encode(snoozedUntil, forKey: .snoozedUntil)
        try c.encode(skipped, forKey: .skipped); try c.encode(pausedThrough, forKey: .pausedThrough)
        try c.encode(skipsHolidays, forKey: .skipsHolidays)
    }
    package enum Keys: String, CodingKey {
        case id, target, time, days, date, label, on, voice, sound, soundReason, next, spokenStandIns, snooze, snoozedUntil, skipped, pausedThrough,
            skipsHolidays
    }
}
