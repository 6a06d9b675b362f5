import Foundation

/// The rules for text a spoken stand-in is made from (`clip say`): short, one line, and with
/// something to say — a letter or a digit, not only punctuation or symbols.
package enum SpokenText {
    /// The most characters a stand-in may speak: an affirmation, not a chapter.
    package static let maximumLength = 500

    /// Why `text` cannot be spoken, or nil when it can.
    package static func problem(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return "the text is empty" }
        if text.count > maximumLength { return "at most \(maximumLength) characters (this has \(text.count))" }
        if PrintableText.hasControlCharacters(text) { return PrintableText.refusal }
        if !text.unicodeScalars.contains(where: { CharacterSet.alphanumerics.contains($0) }) {
            return "nothing to speak: only punctuation or symbols"
        }
        return nil
    }
}
