import Foundation

/// The one rule for control characters in text that came from a person or a file (a name, a
/// path, a device, an option they typed): where such text is kept it must hold none, and
/// where it is echoed — to the terminal, into the event log — each one is shown escaped, so a
/// newline, an escape sequence or a carriage return can never forge a line or repaint a screen.
///
/// ```swift
/// PrintableText.escaped("x\nwarning: all alarms deleted")   // "x\\u{A}warning: all alarms deleted"
/// PrintableText.hasControlCharacters("07:00")                // false
/// ```
package enum PrintableText {
    /// Whether `scalar` is a control character (C0, DEL, C1: a newline, ESC, BEL, CR…): the one
    /// definition every check, escape and replacement below goes through.
    package static func isControlCharacter(_ scalar: Unicode.Scalar) -> Bool {
        CharacterSet.controlCharacters.contains(scalar)
    }

    /// Whether `text` holds a control character.
    package static func hasControlCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: isControlCharacter)
    }

    /// `text` on one line: every control character written as `\u{HEX}`.
    package static func escaped(_ text: String) -> String {
        guard hasControlCharacters(text) else { return text }
        return text.unicodeScalars.map {
            isControlCharacter($0) ? "\\u{\(String($0.value, radix: 16, uppercase: true))}" : String($0)
        }.joined()
    }

    /// Why text that is kept (a title, a name, a label, a path) is refused when it holds control characters.
    package static let refusal = "control characters (such as newlines) are not allowed"
}
