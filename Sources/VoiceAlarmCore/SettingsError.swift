/// A setting that does not parse or fit.
package struct SettingsError: Error, Equatable, Sendable, CustomStringConvertible {
    package var key: String
    package var value: String
    package var reason: String
    package var description: String { "settings \(key) '\(value)': \(reason)" }

    package init(key: String, value: String, reason: String) {
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
