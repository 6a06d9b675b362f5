/// A setting that does not parse or fit.
public struct SettingsError: Error, Equatable, Sendable, CustomStringConvertible {
    public var key: String
    public var value: String
    public var reason: String
    public var description: String { "settings \(key) '\(value)': \(reason)" }

    public init(key: String, value: String, reason: String) {
        self.key = key
        self.value = value
        self.reason = reason
    }

    func because(_ reason: String) -> SettingsError {
        var error = self
        error.reason = reason
        return error
    }
}
