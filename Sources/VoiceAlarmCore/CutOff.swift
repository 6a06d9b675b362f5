import Foundation

/// The end of a recording that was not kept: a take (a phone's upload, the microphone) or a
/// salvaged file is kept up to its last whole frame, and this says what was left out.
///
/// ```swift
/// let cut = CutOff(kept: 3.99, seconds: 0.021, cause: .partialFrame)
/// cut.sentence  // "the last 0.02 s were cut off (the recording ends in the middle of a frame)"
/// ```
package struct CutOff: Equatable, Sendable {
    /// Why the end was left out.
    package enum Cause: String, Equatable, Sendable, CaseIterable {
        /// The file ends in the middle of a frame (a browser's recording stopped while a frame
        /// was being written): the frame is left out.
        case partialFrame
        /// The file ends before the length its header declares.
        case shorterThanDeclared
        /// The audio could not be decoded from some point on (`--salvage` only).
        case damaged
    }

    /// Seconds of audio kept, up to the last whole frame.
    package var kept: Double
    /// Seconds of audio left out, as far as the file tells: the cut frame's own length when the
    /// container names it (MP4), else the length of the frame before it (WebM: every frame of a
    /// browser's recording lasts the same), or what the header declares beyond `kept`. Nil when
    /// nothing says (damage with no declared length).
    package var seconds: Double?
    package var cause: Cause

    package init(kept: Double, seconds: Double?, cause: Cause) {
        self.kept = kept
        self.seconds = seconds
        self.cause = cause
    }

    /// "the last 0.02 s were cut off (the recording ends in the middle of a frame)": for a person,
    /// on every surface.
    package var sentence: String {
        let what: String
        switch cause {
        case .partialFrame: what = "the recording ends in the middle of a frame"
        case .shorterThanDeclared: what = "the file ends before the length its header declares"
        case .damaged: what = "the rest could not be decoded"
        }
        guard let seconds else { return "everything after \(Self.seconds(kept)) s was cut off (\(what))" }
        return "the last \(Self.seconds(max(seconds, 0.01))) s were cut off (\(what))"
    }

    private static func seconds(_ value: Double) -> String { String(format: "%.2f", value) }
}
