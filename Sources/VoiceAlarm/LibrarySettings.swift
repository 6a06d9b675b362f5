import VoiceAlarmCore

/// The library's render settings as remembered in the data dir: `RenderSettingKey`s in their
/// `voicealarm settings` spelling (`trim-silence`), with text values (`on`, `0.5`, `caf`).
public enum LibrarySettings {
    /// The keys `voicealarm settings` accepts.
    public static let keys = RenderSettingKey.allCases.filter(\.isLibrarySetting)

    /// The settings `values` describe (defaults for what is missing), through the one validator.
    /// - Throws: `SettingsError` naming the key whose value does not parse or fit.
    public static func renderSettings(from values: [String: String]) throws -> RenderSettings {
        var settings = RenderSettings()
        for key in keys {
            guard let text = values[key.settingName] else { continue }
            do {
                try settings.set(key, try value(of: key, text))
            } catch let error as RenderSettingError {
                throw SettingsError(key: key.settingName, value: text, reason: rangeText(key) ?? error.reason)
            }
        }
        return settings
    }

    /// How this front end says a number is out of range.
    private static func rangeText(_ key: RenderSettingKey) -> String? {
        switch key {
        case .gap: "must be 0 to 1 (seconds)"
        case .targetLUFS: "must be -40 to -6"
        default: nil
        }
    }

    /// Parses a setting's text in this front end's syntax.
    private static func value(of key: RenderSettingKey, _ text: String) throws -> RenderSettingKey.Value {
        let failure = SettingsError(key: key.settingName, value: text, reason: "")
        switch key {
        case .format:
            guard let format = RingtoneFormat(rawValue: text) else { throw failure.because("not a format (m4a, caf, wav, aiff, mp3)") }
            return .format(format)
        case .codec:
            guard let codec = RingtoneCodec(rawValue: text) else { throw failure.because("not a codec (pcm, ima4)") }
            return .codec(codec)
        case .cap, .gap, .targetLUFS:
            guard let number = Double(text), number.isFinite else { throw failure.because(rangeText(key) ?? "not a number") }
            return .number(number)
        case .trimSilence, .normalize:
            switch text.lowercased() {
            case "on", "true", "yes": return .flag(true)
            case "off", "false", "no": return .flag(false)
            default: throw failure.because("must be on or off")
            }
        }
    }
}

/// A setting that does not parse or fit.
public struct SettingsError: Error, Equatable, CustomStringConvertible {
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
