import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// Reads what Home Assistant is shown of a library (`HomeSnapshot`) from the service: the alarms
/// as `alarm list` has them (one-offs that have rung left out), what rings now, and the machine's
/// problems as `doctor` words them for a phone — examined at most once a minute, since an
/// examination asks systemd and reads every voice file's header.
package final class HomeSnapshotReader {
    /// How long an examination's problems are kept.
    package static let examinationSeconds = 60.0

    private let location: LibraryLocation
    private var examined: (at: Date, problems: [String])?

    package init(location: LibraryLocation) { self.location = location }

    /// Forget the kept examination (after a command that may change it).
    package func forget() { examined = nil }

    /// The snapshot now.
    /// - Throws: what opening or reading the library throws.
    package func read(_ service: AlarmService) throws -> HomeSnapshot {
        let now = service.now(), zone = service.timeZone
        let ringing = Set(RingingRegistry(dataDirectory: service.dataDirectory).ringing().map { Snooze.isScheduleID($0) ? Snooze.scheduleID(for: $0) : $0 })
        let alarms = try service.alarms.statuses().filter { !$0.hasFinished }.map { status in
            let alarm = status.alarm
            let patternNext = alarm.patternNext(after: now, in: zone)
            return HomeSnapshot.Entry(
                id: alarm.id, name: alarm.label ?? "Alarm \(alarm.time)", time: alarm.time, isOn: alarm.isOn, voice: alarm.voice,
                next: status.next,
                state: HomeSnapshot.Entry.state(
                    isOn: alarm.isOn, ringing: ringing.contains(alarm.id), snoozed: status.snoozedUntil != nil, next: status.next, patternNext: patternNext))
        }
        if examined.map({ now.timeIntervalSince($0.at) >= Self.examinationSeconds || $0.at > now }) ?? true {
            let report = try Doctor(service: service, openDevice: { _ in }).examine(location: location)
            examined = (now, report.problems.map { $0.sentence(libraryOpens: report.libraryProblem == nil, on: .page) })
        }
        return HomeSnapshot(alarms: alarms, problems: examined?.problems ?? [], ringing: !ringing.isEmpty, timeZone: zone)
    }
}
