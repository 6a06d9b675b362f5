/// Why an option's value is refused, thrown by the reader of an `Option`; the command line makes it
/// `error: --NAME: REASON` (exit 64).
struct OptionRefusal: Error {
    var reason: String
    /// Whether `--json`'s error object names the option as the input at fault.
    var pointsAtOption = true

    init(_ reason: String, pointsAtOption: Bool = true) {
        self.reason = reason
        self.pointsAtOption = pointsAtOption
    }
}
