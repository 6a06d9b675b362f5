import VoiceAlarmCore

/// One clip of a render could not be used: which one (its position in the clips rendered), and why.
package struct UnusableClip: Error, CustomStringConvertible {
    /// The clip's position in the clips that were rendered.
    package var index: Int
    /// Why it could not be used (an `AudioError` in the product).
    package var reason: any Error

    /// One clip at `index` that failed for `reason`.
    package init(index: Int, reason: any Error) {
        self.index = index
        self.reason = reason
    }

    package var description: String { "\(reason)" }
}

extension UnusableClip: ClassifiedError {
    package var failureKind: FailureKind {
        let kind = Classified.kind(of: reason)
        return kind == .environment ? .environment : .unusableRecording
    }
    package var failureInput: String? { Classified.input(of: reason) }
}
