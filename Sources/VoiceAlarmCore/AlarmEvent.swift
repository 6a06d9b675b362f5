import Foundation

/// Something that happened to an alarm, recorded by whoever made it happen (the ring, a snooze,
/// the daemon passing a skipped day) for whoever follows the alarms — Home Assistant's bridge —
/// as one JSON line in the data dir. The writer never waits for a reader.
package struct AlarmEvent: Codable, Equatable, Sendable {
    /// What happened.
    package enum Kind: String, Codable, CaseIterable, Sendable {
        /// It started ringing (`sound`: what it plays, `reason` when it is the default tone).
        case rang
        /// The ring ended (`seconds` rung).
        case stopped
        /// The ring was put off until `ringAt`.
        case snoozed
        /// It came due while nothing could ring it, too late to ring (`due`).
        case missed
        /// A day the person skipped came and went without a ring (`due`).
        case skipped
        /// It rings in a few minutes (`due`): for a sunrise lamp or the coffee. The bridge makes
        /// these from the alarms' next rings; nothing records them.
        case preAlarm = "pre_alarm"
    }

    /// What a ring plays.
    package enum Sound: String, Codable, Sendable {
        case voice
        /// The default tone (`reason` says why).
        case standard = "default"
    }

    package var kind: Kind
    package var alarm: UUID
    /// When it happened.
    package var at: Date
    package var sound: Sound?
    /// Why the default tone rings, in the words `alarm list` uses.
    package var reason: String?
    /// The ALSA device it rang on.
    package var device: String?
    /// A test ring asked from the page ("Ring it here now").
    package var test: Bool?
    /// Seconds rung.
    package var seconds: Double?
    /// The ring's own time (missed, skipped, pre-alarm).
    package var due: Date?
    /// When a snoozed ring rings again.
    package var ringAt: Date?

    package init(_ kind: Kind, alarm: UUID, at: Date) {
        self.kind = kind
        self.alarm = alarm
        self.at = at
    }
}
