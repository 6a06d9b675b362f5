/// The rule for an alarm's label: printed on one line in listings and JSON, so it holds no
/// control characters (a newline, an escape sequence). Every front end and the service check
/// a label through it before an alarm is kept.
///
/// ```swift
/// try AlarmLabel.check("Work")          // fine
/// try AlarmLabel.check("two\nlines")    // throws AlarmLabel.Problem.controlCharacters
/// ```
package enum AlarmLabel {
    /// Why a label cannot be kept.
    package enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        /// It holds a control character (`PrintableText.hasControlCharacters`).
        case controlCharacters

        package var description: String {
            switch self {
            case .controlCharacters: PrintableText.refusal
            }
        }
    }

    /// Checks `label` against the rule.
    /// - Throws: `AlarmLabel.Problem` saying why it cannot be kept.
    package static func check(_ label: String) throws(Problem) {
        if PrintableText.hasControlCharacters(label) { throw .controlCharacters }
    }
}

extension AlarmLabel.Problem: ClassifiedError {
    /// A label the library cannot keep (400).
    package var failureKind: FailureKind { .invalid }
    package var failureInput: String? { nil }
}
