import Foundation

/// The rules for a clip's title, as for an alarm's label (`AlarmLabel`): printed on one line in
/// listings and JSON, so no control characters (a newline, an escape sequence).
package enum ClipTitle {
    /// Why `title` cannot name a clip, or nil when it can.
    package static func problem(_ title: String) -> String? {
        if PrintableText.hasControlCharacters(title) { return PrintableText.refusal }
        return nil
    }

    /// The title a clip gets when none is given: the file's name without its extension, with any
    /// control character (a file name may hold a newline) replaced by a space.
    package static func fallback(forFile path: String) -> String {
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        return String(
            String.UnicodeScalarView(
                name.unicodeScalars.map {
                    PrintableText.isControlCharacter($0) ? " " : $0
                }))
    }
}
