/// Everything a library remembers about itself in its data dir: the render settings, the playback
/// device, the ramp, the sounds and unit folders, the scheduler backend.
///
/// Values are kept as the text they are stored as (a hand-edited or restored table may hold
/// text that does not parse), so a library and its backup keep every key and value as written;
/// the typed properties read and write that text, and `renderSettings()` checks the render
/// settings through the one validator.
///
/// ```swift
/// var settings = try store.settings()
/// settings.device = "plughw:1,0"
/// let render = try settings.renderSettings()
/// ```
package struct LibrarySettings: Equatable, Sendable {
    /// A remembered setting, spelled as stored (and as `voicealarm settings KEY VALUE` takes it).
    package enum Key: String, CaseIterable, Sendable, CodingKey {
        case format, codec, gap
        case trimSilence = "trim-silence"
        case normalize
        case targetLUFS = "target-lufs"
        case device, ramp
        case soundsDirectory = "sounds-dir"
        case unitDirectory = "unit-dir"
        case scheduler

        /// The library key of a render setting; nil for the cap, which the library does not remember.
        package init?(_ render: RenderSettingKey) {
            switch render {
            case .format: self = .format
            case .codec: self = .codec
            case .gap: self = .gap
            case .trimSilence: self = .trimSilence
            case .normalize: self = .normalize
            case .targetLUFS: self = .targetLUFS
            case .cap: return nil
            }
        }

        /// The render setting this key holds, if it holds one.
        package var renderKey: RenderSettingKey? {
            switch self {
            case .format: .format
            case .codec: .codec
            case .gap: .gap
            case .trimSilence: .trimSilence
            case .normalize: .normalize
            case .targetLUFS: .targetLUFS
            case .device, .ramp, .soundsDirectory, .unitDirectory, .scheduler: nil
            }
        }

        /// Whether a person sets it by name (`voicealarm settings KEY VALUE`); the folders and the
        /// backend are remembered from the options that choose them instead.
        package var isSetByName: Bool {
            switch self {
            case .soundsDirectory, .unitDirectory, .scheduler: false
            default: true
            }
        }
    }

    /// The render settings the library remembers, in `RenderSettingKey` order.
    package static let renderKeys = RenderSettingKey.allCases.filter(\.isLibrarySetting)

    private var stored: [Key: String] = [:]

    /// No setting remembered: every default applies.
    package init() {}

    /// The text `key` is stored as, or nil when it is not remembered (its default applies).
    /// The store maps its rows through this, and a backup its JSON.
    package subscript(stored key: Key) -> String? {
        get { stored[key] }
        set { stored[key] = newValue }
    }

    /// The keys remembered, in `Key` order.
    package var storedKeys: [Key] { Key.allCases.filter { stored[$0] != nil } }

    /// These settings, with what `other` remembers that these do not.
    package func filled(from other: LibrarySettings) -> LibrarySettings {
        var merged = self
        merged.stored.merge(other.stored) { mine, _ in mine }
        return merged
    }

    // MARK: Typed values

    /// The ALSA device alarms ring on (`settings device NAME`); nil when none was chosen (`default`).
    package var device: String? {
        get { stored[.device] }
        set { stored[.device] = newValue }
    }

    /// Seconds over which rings rise from quiet to full level, as remembered; nil when none is, or
    /// the text is no number. Not clamped: `VolumeRamp.clamped` makes a hand-edited value usable.
    package var rampSeconds: Double? {
        get { stored[.ramp].flatMap(Double.init) }
        set { stored[.ramp] = newValue.map { "\($0)" } }
    }

    /// The folder voice files go to, when one other than the data dir's `Sounds` was chosen.
    package var soundsDirectory: String? {
        get { stored[.soundsDirectory] }
        set { stored[.soundsDirectory] = newValue }
    }

    /// The folder systemd units are written to, when one was given.
    package var unitDirectory: String? {
        get { stored[.unitDirectory] }
        set { stored[.unitDirectory] = newValue }
    }

    /// The scheduler backend alarms are on; nil when none is remembered or the text names none.
    package var scheduler: SchedulerBackend? {
        get { stored[.scheduler].flatMap(SchedulerBackend.init(rawValue:)) }
        set { stored[.scheduler] = newValue?.rawValue }
    }

    /// Remembers a render setting as given (`value` in the `voicealarm settings` syntax, checked
    /// by `renderSettings()`).
    package mutating func setRender(_ key: RenderSettingKey, to value: String) {
        guard let stored = Key(key) else { preconditionFailure("the library does not remember \(key)") }
        self.stored[stored] = value
    }

    /// The render settings remembered (defaults for what is not), through the one validator.
    /// - Throws: `SettingsError` naming the first key whose value does not parse or fit.
    package func renderSettings() throws -> RenderSettings {
        var settings = RenderSettings()
        for key in Self.renderKeys {
            guard let text = Key(key).flatMap({ stored[$0] }) else { continue }
            let value = try Self.value(of: key, text)
            do {
                try settings.set(key, value)
            } catch {
                throw SettingsError(key: key.settingName, value: text, reason: Self.rangeText(key) ?? error.reason)
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
    private static func value(of key: RenderSettingKey, _ text: String) throws(SettingsError) -> RenderSettingKey.Value {
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

/// In a backup, the settings are one JSON object of stored keys and their text, as in the table.
extension LibrarySettings: Codable {
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        for key in container.allKeys { stored[key] = try container.decode(String.self, forKey: key) }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for key in storedKeys { try container.encode(stored[key], forKey: key) }
    }
}
