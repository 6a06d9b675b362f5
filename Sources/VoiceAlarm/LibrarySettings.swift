import VoiceAlarmCore

/// The library's render settings as remembered in the data dir: keys, parsing, validation.
public enum LibrarySettings {
    /// The keys `voicealarm settings` accepts, with what each means.
    public static let keys: [(key: String, help: String)] = [
        ("format", "m4a, caf, wav, aiff or mp3"),
        ("codec", "pcm or ima4 (caf, aiff); the format's default when unset"),
        ("gap", "silence between clips, 0 to 1 s"),
        ("trim-silence", "on or off"),
        ("normalize", "on or off"),
        ("target-lufs", "-40 to -6"),
    ]

    /// The settings `values` describe (defaults for what is missing).
    /// - Throws: `SettingsError` naming the key whose value does not parse or fit.
    public static func renderSettings(from values: [String: String]) throws -> RenderSettings {
        var settings = RenderSettings()
        if let text = values["format"] {
            guard let format = RingtoneFormat(rawValue: text) else { throw SettingsError(key: "format", value: text, reason: "not a format (m4a, caf, wav, aiff, mp3)") }
            settings.format = format
            settings.codec = format.defaultCodec
        }
        if let text = values["codec"] {
            guard let codec = RingtoneCodec(rawValue: text) else { throw SettingsError(key: "codec", value: text, reason: "not a codec (pcm, ima4)") }
            settings.codec = codec
        }
        if let text = values["gap"] {
            guard let gap = Double(text), RenderSettings.gapRange.contains(gap) else { throw SettingsError(key: "gap", value: text, reason: "must be 0 to 1 (seconds)") }
            settings.gap = gap
        }
        if let text = values["trim-silence"] { settings.trimSilence = try flag("trim-silence", text) }
        if let text = values["normalize"] { settings.normalize = try flag("normalize", text) }
        if let text = values["target-lufs"] {
            guard let lufs = Double(text), RenderSettings.targetLUFSRange.contains(lufs) else { throw SettingsError(key: "target-lufs", value: text, reason: "must be -40 to -6") }
            settings.targetLUFS = lufs
        }
        if let problem = settings.problem { throw SettingsError(key: values["codec"] != nil ? "codec" : "format", value: values["codec"] ?? values["format"] ?? "", reason: problem) }
        return settings
    }

    private static func flag(_ key: String, _ text: String) throws -> Bool {
        switch text.lowercased() {
        case "on", "true", "yes": return true
        case "off", "false", "no": return false
        default: throw SettingsError(key: key, value: text, reason: "must be on or off")
        }
    }
}

/// A setting that does not parse or fit.
public struct SettingsError: Error, Equatable, CustomStringConvertible {
    public var key: String
    public var value: String
    public var reason: String
    public var description: String { "settings \(key) '\(value)': \(reason)" }
}
