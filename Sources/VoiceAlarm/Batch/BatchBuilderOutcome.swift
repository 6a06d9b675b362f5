import Foundation
import VoiceAlarmCore

extension BatchBuilder {
    /// What a rebuild of the library's alarms did (`voicealarm build`):
    /// `{"built", "skipped", "failed": [{"id", "error"}], "seconds"}`; a batch reports a `BatchReport`.
    package struct Outcome: Encodable, Sendable {
        package struct Failure: Encodable, Sendable, Equatable {
            package var id: String
            package var error: String
            package init(id: String, error: String) {
                self.id = id
                self.error = error
            }
        }
        /// A ringtone built under its loudness target.
        package struct Shortfall: Encodable, Sendable, Equatable {
            /// The ringtone's id: the manifest's, or the alarm's UUID.
            package var id: String
            /// How far under, and why.
            package var shortfall: LoudnessShortfall
            /// The ringtone `id`, built `shortfall` under its target.
            package init(id: String, shortfall: LoudnessShortfall) {
                self.id = id
                self.shortfall = shortfall
            }
        }
        package var built = 0
        package var skipped = 0
        package var failed: [Failure] = []
        /// The ringtones built under their loudness target, and why.
        package var shortfalls: [Shortfall] = []
        package var seconds = 0.0
        package init() {}
    }

    /// Progress after each ringtone: done, total, failures so far.
    package struct Progress: Sendable {
        package var done: Int
        package var total: Int
        package var failed: Int
        package var elapsed: TimeInterval
    }
}
