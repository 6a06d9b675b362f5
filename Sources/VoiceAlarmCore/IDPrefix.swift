import Foundation

/// What a person may give where a clip, alarm or device is meant: its id, or the first 8 or more
/// characters of it, in either case. Ids are lowercase UUIDs, so a reference is made of
/// hexadecimal digits and dashes only, at most 36 of them; anything else (a `%` or `_`, a space,
/// a 60,000-character path segment) names no id and is refused before any lookup, so no text a
/// person typed ever reaches a query as a pattern.
///
/// ```swift
/// IDPrefix.parse("5B1E09C2")   // .success: "5b1e09c2"
/// IDPrefix.parse("5b1e")       // .failure(.tooShort)
/// IDPrefix.parse("________")   // .failure(.notAnID)
/// ```
package struct IDPrefix: Sendable, Hashable, CustomStringConvertible {
    /// The fewest characters of an id a reference gives: what the lists print.
    package static let shortest = 8
    /// A whole id's length (`5b1e09c2-…`).
    package static let longest = 36
    /// The most characters of a refused reference that a message echoes (`shown(_:)`).
    package static let longestShown = 40

    /// Why a reference is not an id prefix.
    package enum Problem: Error, Sendable, Equatable {
        /// A character other than a hexadecimal digit or a dash, or more than 36 characters.
        case notAnID
        /// Fewer than 8 characters, all of them possible in an id.
        case tooShort
    }

    /// The reference in lowercase: 8 to 36 hexadecimal digits and dashes.
    package let text: String

    private init(text: String) { self.text = text }

    /// The id itself when the reference is a whole one.
    package var full: UUID? { text.count == Self.longest ? UUID(uuidString: text) : nil }

    package var description: String { text }

    /// `reference` as an id prefix, or why it is none. A character outside the id's alphabet
    /// is `notAnID` whatever the length; a short run of possible characters is `tooShort`.
    package static func parse(_ reference: String) -> Result<IDPrefix, Problem> {
        var count = 0
        for scalar in reference.unicodeScalars {
            count += 1
            guard count <= longest, isIDCharacter(scalar) else { return .failure(.notAnID) }
        }
        guard count >= shortest else { return .failure(.tooShort) }
        return .success(IDPrefix(text: reference.lowercased()))
    }

    /// Whether `scalar` may appear in an id as a person types it: `0-9`, `a-f`, `A-F`, `-`.
    package static func isIDCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "0"..."9", "a"..."f", "A"..."F", "-": true
        default: false
        }
    }

    /// A refused reference as a message echoes it: on one line (control characters escaped) and
    /// at most `longestShown` characters, the rest left out with `…`.
    package static func shown(_ reference: String) -> String {
        let escaped = PrintableText.escaped(reference)
        return escaped.count <= longestShown ? escaped : String(escaped.prefix(longestShown - 1)) + "…"
    }
}
