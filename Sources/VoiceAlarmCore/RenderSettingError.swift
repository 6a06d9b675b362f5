/// A render setting that cannot be used: which key, and why (in the settings' own words).
public struct RenderSettingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The setting that was refused.
    public var key: RenderSettingKey
    /// Why, e.g. "m4a cannot carry ima4 (use aac)".
    public var reason: String
    public var description: String { reason }
}
