/// A render setting that cannot be used: which key, and why (in the settings' own words).
package struct RenderSettingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The setting that was refused.
    package var key: RenderSettingKey
    /// Why, e.g. "m4a cannot carry ima4 (use aac)".
    package var reason: String
    package var description: String { reason }
}
