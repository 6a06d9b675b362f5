import Foundation
import VoiceAlarmCore
import VoiceAlarmStore

/// What a ring needs to know about its alarm, found from as much of the library as can be
/// read: the library itself; else its database read-only (a read-only or full disk, a database
/// locked by another process); else only what the scheduler handed the ring (`--sound`).
/// Ringing depends on nothing but a readable sound.
///
/// ```swift
/// let (subject, service) = try RingSubject.find("9c41d2e0-…", in: location, soundHint: nil, open: { try LibraryOpener.open(location).0 })
/// try AlarmRinger(dataDirectory: subject.dataDirectory, shouldStop: { false }, say: { print($0) }).ring(subject, options: .init())
/// ```
package struct RingSubject: Sendable {
    package var id: UUID
    /// How logs and messages name the alarm: `alarm <id> (<target> at <time>)`.
    package var tag: String
    /// The alarm's schedule, for the missed-alarm rule; nil when it cannot be read.
    package var schedule: AlarmSchedule?
    /// The voice file to play (absolute), or nil for the default tone.
    package var voiceFile: String?
    package var dataDirectory: String
    /// Why the library could not be used, when it could not.
    package var degraded: String?
    /// The playback device the library remembers, when it could be read.
    package var device: String?
    /// The volume ramp the library remembers, in seconds, when it could be read.
    package var ramp: Double?
    /// Why the library resolves it to the default tone (`alarm list`'s words), when it does.
    package var defaultToneReason: String?

    /// The alarm this ring is of (a snoozed ring is rung under its own id).
    package var alarm: UUID { Snooze.isScheduleID(id) ? Snooze.scheduleID(for: id) : id }

    /// A subject from a library that opened.
    init(_ status: AlarmStatus, soundsDirectory: String, dataDirectory: String) {
        id = status.alarm.id
        tag = "alarm \(status.alarm.idString) (\(status.alarm.target) at \(status.alarm.time))"
        schedule = status.alarm.schedule
        if case .voice(let file) = status.sound { voiceFile = "\(soundsDirectory)/\(file)" }
        defaultToneReason = status.sound.reason
        self.dataDirectory = dataDirectory
    }

    init(id: UUID, tag: String, schedule: AlarmSchedule?, voiceFile: String?, dataDirectory: String, degraded: String?) {
        self.id = id
        self.tag = tag
        self.schedule = schedule
        self.voiceFile = voiceFile
        self.dataDirectory = dataDirectory
        self.degraded = degraded
    }

    /// Finds what to ring for `reference`.
    /// - Parameters:
    ///   - soundHint: the voice file the scheduler named for this alarm, used only when the
    ///     library cannot be read at all.
    ///   - open: opens the library normally.
    /// - Returns: the subject, and the service when the library opened.
    /// - Throws: `LibraryError` for an alarm the library does not know; when the library cannot
    ///   be opened, only for a reference that is not a whole id (a short id needs the library).
    package static func find(
        _ reference: String, in location: LibraryLocation, soundHint: String?, now: () -> Date = Date.init,
        open: () throws -> AlarmService
    ) throws -> (RingSubject, AlarmService?) {
        let failure: any Error
        // A snoozed ring is scheduled under its alarm's id with every bit flipped.
        let snoozeOf = UUID(uuidString: reference).flatMap { Snooze.isScheduleID($0) ? Snooze.scheduleID(for: $0) : nil }
        do {
            let service = try open()
            var subject: RingSubject
            if let alarm = snoozeOf {
                // Only a snooze still pending rings: 'stop' cancelled it, or it has been and gone.
                guard let snooze = try service.sync.liveSnoozes().first(where: { $0.alarm == alarm }) else {
                    throw LibraryError.noPendingSnooze(reference)
                }
                let status = try service.alarms.status(of: alarm)
                subject = RingSubject(status, soundsDirectory: service.soundsDirectory, dataDirectory: service.dataDirectory)
                subject.id = snooze.scheduleID
                subject.schedule = .fixed(snooze.ringAt)
                subject.tag = "alarm \(status.alarm.idString) (\(status.alarm.target) at \(status.alarm.time), snoozed \(snooze.count)×)"
            } else {
                let status = try service.alarms.status(of: try service.alarms.id(reference))
                subject = RingSubject(status, soundsDirectory: service.soundsDirectory, dataDirectory: service.dataDirectory)
            }
            subject.device = try? service.settings.device()
            subject.ramp = try? service.settings.ramp()
            return (subject, service)
        } catch let error as LibraryError {
            throw error
        } catch {
            failure = error
        }
        let dataDirectory = location.dataDirectory
        if let store = try? LibraryStore(readingOnly: dataDirectory),
            let alarm = snoozeOf ?? (try? IDResolver(store: store).resolve(reference, in: .alarms, kind: "alarm", unknown: { .unknownAlarm($0) })),
            let stored = try? store.alarm(alarm)
        {
            let id = snoozeOf.map(Snooze.scheduleID(for:)) ?? alarm
            // A snoozed ring rings at its own time, and only while it is still pending.
            var schedule = stored.alarm.schedule
            if snoozeOf != nil {
                let now = now()
                guard let snooze = try? store.snoozes().first(where: { $0.alarm == alarm && now.timeIntervalSince($0.ringAt) < MissedAlarmPolicy.window })
                else {
                    throw LibraryError.noPendingSnooze(reference)
                }
                schedule = .fixed(snooze.ringAt)
            }
            let remembered = (try? store.settings()) ?? LibrarySettings()
            let sounds = remembered.soundsDirectory ?? "\(dataDirectory)/Sounds"
            let voice = stored.alarm.voice ? stored.soundFile.map { "\(sounds)/\($0)" } : nil
            var subject = RingSubject(
                id: id, tag: "alarm \(stored.alarm.idString) (\(stored.alarm.target) at \(stored.alarm.time))",
                schedule: schedule, voiceFile: voice, dataDirectory: dataDirectory,
                degraded: "the library cannot be opened to write (\(failure)); read it without writing")
            subject.device = remembered.device
            subject.ramp = remembered.rampSeconds
            return (subject, nil)
        }
        guard let id = UUID(uuidString: reference) else { throw failure }
        return (
            RingSubject(
                id: id, tag: "alarm \(id.uuidString.lowercased())", schedule: nil, voiceFile: soundHint,
                dataDirectory: dataDirectory,
                degraded: "the library cannot be read (\(failure)); ringing " + (soundHint == nil ? "the default tone" : "the sound its scheduler named")), nil
        )
    }
}
