import Foundation

/// The sound a scheduled alarm plays, as AlarmKit's `AlertSound`: the system's default, or a
/// file in the sounds directory named with its extension.
package enum AlertSound: Hashable, Sendable, Codable, CustomStringConvertible {
    case `default`
    case named(String)

    package var description: String {
        switch self {
        case .default: "default"
        case .named(let name): name
        }
    }
}

/// What the scheduler needs to ring an alarm, as AlarmKit's `AlarmConfiguration`, and the days
/// it does not ring though its schedule says so (`skips`: only those still ahead).
package struct AlarmConfiguration: Hashable, Sendable, Codable {
    package var schedule: AlarmSchedule
    package var sound: AlertSound
    package var label: String?
    package var skips: Skips

    package init(schedule: AlarmSchedule, sound: AlertSound, label: String? = nil, skips: Skips = Skips()) {
        self.schedule = schedule
        self.sound = sound
        self.label = label
        self.skips = skips
    }

    /// When it rings next strictly after `instant`: its schedule's next ring that is not skipped.
    package func nextFire(after instant: Date, in timeZone: TimeZone) -> Date? {
        skips.isEmpty ? schedule.nextFire(after: instant, in: timeZone) : skips.nextFire(of: schedule, after: instant, in: timeZone)
    }

    // `skips` is left out when empty, and absent reads as empty: what a scheduler kept before
    // skips existed reads the same, and compares equal to what it would hold now.
    private enum Keys: String, CodingKey { case schedule, sound, label, skips }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        schedule = try c.decode(AlarmSchedule.self, forKey: .schedule)
        sound = try c.decode(AlertSound.self, forKey: .sound)
        label = try c.decodeIfPresent(String.self, forKey: .label)
        skips = try c.decodeIfPresent(Skips.self, forKey: .skips) ?? Skips()
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(schedule, forKey: .schedule)
        try c.encode(sound, forKey: .sound)
        try c.encodeIfPresent(label, forKey: .label)
        if !skips.isEmpty { try c.encode(skips, forKey: .skips) }
    }
}

/// One alarm as a scheduler holds it.
package struct ScheduledAlarm: Hashable, Sendable, Codable {
    package var id: UUID
    package var configuration: AlarmConfiguration

    package init(id: UUID, configuration: AlarmConfiguration) {
        self.id = id
        self.configuration = configuration
    }
}

/// The hook every scheduling backend implements, shaped like AlarmKit's `AlarmManager`:
/// schedule (or re-schedule) under our own stable id, cancel, and list.
///
/// Callers ask a backend what it is and can do (`backend`, `ringsThroughDaemon`,
/// `systemdUnitDirectory`, `carrying(device:)`) rather than which type it is, so a fake stands
/// in for either.
///
/// ```swift
/// try scheduler.schedule(id: alarm.id, configuration: .init(schedule: alarm.schedule, sound: .named("\(id).m4a")))
/// ```
package protocol AlarmScheduler {
    /// Which of the product's backends this is (what `doctor` reports).
    var backend: SchedulerBackend { get }
    /// True when alarms ring only while a `voicealarm daemon` runs for the data dir (the
    /// embedded backend: the daemon, its systemd service and its wake-up clock are for it);
    /// false when the system rings them itself (systemd timers).
    var ringsThroughDaemon: Bool { get }
    /// The folder of systemd units this backend writes its timers to; nil for one that writes none.
    var systemdUnitDirectory: String? { get }
    /// Schedules the alarm, replacing whatever was scheduled under `id`.
    func schedule(id: UUID, configuration: AlarmConfiguration) throws
    /// Removes the alarm; cancelling an id that is not scheduled does nothing.
    func cancel(id: UUID) throws
    /// Everything scheduled now.
    func alarms() throws -> [ScheduledAlarm]
    /// False when the backend's copy of `alarm` is out of date in a way its configuration does
    /// not show (an edited or corrupt unit file, a passed DST gap day).
    func isCurrent(_ alarm: ScheduledAlarm) -> Bool
    /// What stops this backend from ringing alarms (no daemon, no user manager…); empty when
    /// nothing does.
    func problems() -> [SchedulerProblem]
    /// The same backend for voice files kept in another folder: a backend that writes their
    /// paths (systemd units name the file a ring plays) is made anew with the folder; one that
    /// keeps only their names is itself.
    func relocating(soundsDirectory: String) throws -> any AlarmScheduler
    /// The same backend for rings on another playback device (nil: the default): a backend that
    /// writes the device into what it schedules (systemd units name it) is made anew with it;
    /// one whose rings read the remembered device when they start is itself.
    func carrying(device: String?) throws -> any AlarmScheduler
}

extension AlarmScheduler {
    package var ringsThroughDaemon: Bool { backend == .embedded }
    package var systemdUnitDirectory: String? { nil }
    package func isCurrent(_ alarm: ScheduledAlarm) -> Bool { true }
    package func relocating(soundsDirectory: String) throws -> any AlarmScheduler { self }
    package func carrying(device: String?) throws -> any AlarmScheduler { self }
}

/// AlarmKit's `alarmUpdates`: the scheduled alarms, yielded whenever the list read by `read`
/// changes (checked every `interval`). `read` must open its own access to the backend, as it
/// runs in its own task.
package func alarmUpdates(
    checkingEvery interval: Duration = .seconds(5),
    read: @escaping @Sendable () throws -> [ScheduledAlarm]
) -> AsyncStream<[ScheduledAlarm]> {
    AsyncStream { continuation in
        let task = Task {
            var last: [ScheduledAlarm]?
            while !Task.isCancelled {
                if let current = try? read(), current != last {
                    continuation.yield(current)
                    last = current
                }
                try? await Task.sleep(for: interval)
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
    }
}
