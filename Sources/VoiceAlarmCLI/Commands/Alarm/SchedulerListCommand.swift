import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm scheduler list`: what the scheduler holds, whatever the library says.
enum SchedulerListCommand: Command {
    static let spec = CommandSpec(
        name: "scheduler list", summary: "What the scheduler holds: each alarm's sound and next ring time", arguments: "",
        minimumArguments: 0, maximumArguments: 0, options: [], examples: ["voicealarm scheduler list --json"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let service = try context.library()
        let scheduled = try service.sync.scheduled()
        let now = service.now()
        context.present(scheduled.map { ScheduledJSON($0, now: now, timeZone: service.timeZone) }) {
            for alarm in scheduled {
                let next = alarm.configuration.nextFire(after: now, in: service.timeZone)
                context.console.result(
                    "\(alarm.id.uuidString.lowercased())  \(Report.describe(alarm.configuration.schedule))  next \(next.map { Report.iso($0, service.timeZone) } ?? "never")  sound \(alarm.configuration.sound)"
                )
            }
            if scheduled.isEmpty { context.say("The scheduler holds no alarms.") }
        }
        return .success
    }

    /// `{"id", "sound", "next", "schedule"}`.
    struct ScheduledJSON: Encodable {
        var id: String, sound: String, next: String?, schedule: String

        init(_ alarm: ScheduledAlarm, now: Date, timeZone: TimeZone) {
            id = alarm.id.uuidString.lowercased()
            sound = alarm.configuration.sound.description
            next = alarm.configuration.nextFire(after: now, in: timeZone).map { Report.iso($0, timeZone) }
            schedule = Report.describe(alarm.configuration.schedule)
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(id, forKey: .id); try c.encode(sound, forKey: .sound)
            try c.encode(next, forKey: .next); try c.encode(schedule, forKey: .schedule)
        }
        enum Keys: String, CodingKey { case id, sound, next, schedule }
    }
}
