/// An optional that `--json` prints as `null` when absent, rather than leaving its key out (what
/// synthesized `Encodable` does with an optional): every document of a shape has the same keys.
package struct Nullable<Wrapped: Encodable>: Encodable {
    package var value: Wrapped?

    package init(_ value: Wrapped?) { self.value = value }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value { try container.encode(value) } else { try container.encodeNil() }
    }
}
