import Foundation

/// A test ring asked from the page: one alarm's sound on the bedside machine's speaker for
/// `seconds`, rung by the alarm daemon as it rings an alarm (the web server never opens the
/// sound device), so the person hears before sleeping what will wake them, and where.
///
/// Its phase is worked out from what the data dir holds — the request, the daemon taking it, the
/// ring going on, the ring's own result — so every surface says the same.
///
/// ```swift
/// TestRing.phase(asked: request, taken: nil, result: nil, ringing: false, now: now)   // .asked
/// ```
public enum TestRing {
    /// How long a test ring rings, in seconds.
    public static let seconds = 10.0
    /// How long a request waits for the daemon before it is said not taken.
    public static let takeWithin: TimeInterval = 15
    /// How long a finished test ring's result is shown.
    public static let shownFor: TimeInterval = 10 * 60

    /// A request, as asked or as the daemon took it.
    public struct Request: Codable, Equatable, Sendable {
        public var alarm: UUID
        public var asked: Date
        public init(alarm: UUID, asked: Date) {
            self.alarm = alarm
            self.asked = asked
        }
    }

    /// What the ring process said when it ended (its `--json`): where it rang and what.
    public enum Result: Equatable, Sendable {
        /// It played on `device` for `seconds`: the alarm's voice ringtone (`voice`), or the standard sound.
        case rang(device: String, voice: Bool, seconds: Double)
        /// It made no sound: the ring's own reason.
        case madeNoSound(String)
    }

    /// Where a test ring is.
    public enum Phase: Equatable, Sendable {
        /// Asked; the daemon has not taken it yet.
        case asked(Request)
        /// The daemon took it and it rings now.
        case ringing(Request)
        /// It ended having played on a device.
        case rang(Request, device: String, voice: Bool, seconds: Double)
        /// It made no sound, or was never rung: why, in the ring's or the daemon's words.
        case failed(Request, Failure)

        public var request: Request {
            switch self {
            case .asked(let request), .ringing(let request), .rang(let request, _, _, _), .failed(let request, _): request
            }
        }
    }

    /// Why a test ring made no sound.
    public enum Failure: Equatable, Sendable {
        /// No daemon took the request in time (none runs, or one too old to know test rings).
        case notTaken
        /// The ring made no sound, in its own words.
        case madeNoSound(String)
        /// The ring ended without saying how (killed).
        case endedUnheard
    }

    /// The phase of the newest test ring, or nil when there is none to show (none asked, or its
    /// result is older than `shownFor`).
    /// - Parameters:
    ///   - asked: a request not taken yet; `taken`: the one the daemon took.
    ///   - result: what the taken ring's process said, once it ended; nil while it says nothing.
    ///   - ringing: whether the taken ring's process rings now.
    public static func phase(asked: Request?, taken: Request?, result: Result?, ringing: Bool, now: Date) -> Phase? {
        if let asked, taken.map({ $0.asked < asked.asked }) ?? true {
            return now.timeIntervalSince(asked.asked) > takeWithin ? .failed(asked, .notTaken) : .asked(asked)
        }
        guard let taken, now.timeIntervalSince(taken.asked) <= shownFor else { return nil }
        switch result {
        case .rang(let device, let voice, let seconds): return .rang(taken, device: device, voice: voice, seconds: seconds)
        case .madeNoSound(let reason): return .failed(taken, .madeNoSound(reason))
        case nil:
            if ringing { return .ringing(taken) }
            // Taken, not ringing, nothing said: starting (a moment), or it died without a word.
            return now.timeIntervalSince(taken.asked) > takeWithin + seconds ? .failed(taken, .endedUnheard) : .ringing(taken)
        }
    }
}
