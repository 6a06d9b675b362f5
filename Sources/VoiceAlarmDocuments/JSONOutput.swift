import Foundation

/// Machine output for `--json`: pretty-printed, keys in a stable order, slashes unescaped, and
/// empty arrays and objects as `[]` and `{}`.
package enum JSONOutput {
    package static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // A number read from a damaged record may be infinite or not a number: said as text, never a crash.
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        guard let data = try? encoder.encode(value), let text = String(data: data, encoding: .utf8) else {
            preconditionFailure("a report failed to encode as JSON")
        }
        return compactingEmpty(text)
    }

    /// Foundation pretty-prints an empty array as `[`, a blank line and `]`. A raw newline never
    /// occurs inside a JSON string (it is escaped as `\n`), so this pattern is always structure.
    package static func compactingEmpty(_ text: String) -> String {
        text.replacingOccurrences(of: #"\[\n\n *\]"#, with: "[]", options: .regularExpression)
            .replacingOccurrences(of: #"\{\n\n *\}"#, with: "{}", options: .regularExpression)
    }
}
