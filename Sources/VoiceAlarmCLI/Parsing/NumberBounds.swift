/// The numbers a number option takes: a closed range (`0 to 1`) or one open at both ends
/// (`more than 0 and less than 30`). Help states it and a usage error quotes it, from this one value.
package enum NumberBounds: Sendable, Equatable {
    /// From the lower bound to the upper one, both allowed.
    case closed(ClosedRange<Double>)
    /// More than `lower` and less than `upper`.
    case open(lower: Double, upper: Double)

    package func contains(_ number: Double) -> Bool {
        switch self {
        case .closed(let range): range.contains(number)
        case .open(let lower, let upper): number > lower && number < upper
        }
    }

    /// As help says it: `0 to 1`, `more than 0 and less than 30`.
    var phrase: String {
        switch self {
        case .closed(let range): "\(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))"
        case .open(let lower, let upper): "more than \(Self.format(lower)) and less than \(Self.format(upper))"
        }
    }

    /// Why `text` (a number outside the bounds) is refused: `20 is out of range (0...1)`.
    func refusal(of text: String) -> String {
        switch self {
        case .closed(let range): "\(text) is out of range (\(Self.format(range.lowerBound))...\(Self.format(range.upperBound)))"
        case .open(let lower, let upper): "\(text) must be more than \(Self.format(lower)) and less than \(Self.format(upper))"
        }
    }

    /// `29`, `0.3`, `-16`: whole numbers without a decimal point.
    static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
