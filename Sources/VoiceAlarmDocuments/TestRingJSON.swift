import Foundation
import VoiceAlarmCore

/// A test ring asked from the page, as the status says it: `{"alarm", "state", "device", "sound",
/// "seconds", "problem", "at"}` — `state` `asked`, `ringing`, `rang` or `failed`; `sound` `voice`
/// or `standard` once it rang; `problem` the sentence for the person when it made no sound.
package struct TestRingJSON: Encodable {
    package var alarm: String
    package var state: String
    package var device: Nullable<String>
    package var sound: Nullable<String>
    package var seconds: Nullable<Double>
    package var problem: Nullable<String>
    package var at: String

    package init(_ phase: TestRing.Phase, _ timeZone: TimeZone) {
        alarm = phase.request.alarm.uuidString.lowercased()
        at = LocalTimeText.iso(phase.request.asked, timeZone)
        (device, sound, seconds, problem) = (.init(nil), .init(nil), .init(nil), .init(nil))
        switch phase {
        case .asked: state = "asked"
        case .ringing: state = "ringing"
        case .rang(_, let device, let voice, let seconds):
            state = "rang"
            self.device = .init(device)
            sound = .init(voice ? "voice" : "standard")
            self.seconds = .init(JSONNumbers.seconds(seconds))
        case .failed(_, let failure):
            state = "failed"
            problem = .init(Self.sentence(failure))
        }
    }

    /// Why it made no sound, for the person.
    static func sentence(_ failure: TestRing.Failure) -> String {
        switch failure {
        case .notTaken:
            "The alarm service did not take the test ring: it may be an older version, or stopped. Restart it on the bedside machine."
        case .madeNoSound(let reason): "It made no sound: \(reason)."
        case .endedUnheard: "The test ring ended without saying whether it made sound; look at the bedside machine's event log."
        }
    }
}
