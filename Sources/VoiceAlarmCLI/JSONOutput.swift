import Foundation

/// Machine output for `--json`: pretty-printed, keys in a stable order, slashes unescaped.
enum JSONOutput {
    static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value), let text = String(data: data, encoding: .utf8) else {
            preconditionFailure("a report failed to encode as JSON")
        }
        return text
    }
}
