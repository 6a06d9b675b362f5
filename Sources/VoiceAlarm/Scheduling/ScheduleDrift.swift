import Foundation

/// One way the scheduler is out of step with the library (`ScheduleSync.drift()`), as
/// `doctor` reports it; `voicealarm reconcile` repairs every case.
package enum ScheduleDrift: Equatable, Sendable, CustomStringConvertible {
    /// A live alarm the scheduler does not hold: nothing will ring it.
    case notHeld(UUID)
    /// An alarm the scheduler holds with another time or sound than the library's.
    case stale(UUID)
    /// Something the scheduler holds that the library does not know (or that has finished).
    case unknown(UUID)
    /// The scheduler names a voice file that is not there: its ring would play the default tone.
    case missingSound(UUID, file: String)

    /// The alarm (or scheduled ring) it is about.
    package var id: UUID {
        switch self {
        case .notHeld(let id), .stale(let id), .unknown(let id), .missingSound(let id, _): id
        }
    }

    /// Whether this drift can leave an alarm silent or wrong, not only untidy.
    package var affectsRinging: Bool {
        if case .unknown = self { return false }
        return true
    }

    package var description: String {
        let id = id.uuidString.lowercased()
        return switch self {
        case .notHeld: "alarm \(id) is not held by the scheduler: nothing will ring it"
        case .stale: "the scheduler holds alarm \(id) with another time or sound than the library"
        case .unknown: "the scheduler holds \(id), which the library does not know"
        case .missingSound(_, let file): "the scheduler names voice file \(file) for \(id), which is not there: it would ring the default tone"
        }
    }
}
