/// The render settings a person or a pipeline can set, one vocabulary for every front end:
/// `voicealarm settings` (kebab-case, remembered by the library), a batch manifest (camelCase
/// JSON) and the options of `render` and `batch`. Each front end maps only its own spelling;
/// `RenderSettings.set(_:_:)` is the one place values are checked and combined.
package enum RenderSettingKey: String, CaseIterable, Sendable {
    case format, codec, cap, gap, trimSilence, normalize, targetLUFS

    /// The value a key takes, already parsed by the front end from its own syntax.
    package enum Value: Equatable, Sendable {
        case format(RingtoneFormat)
        case codec(RingtoneCodec)
        case number(Double)
        case flag(Bool)
    }

    /// The key of `voicealarm settings KEY VALUE` and of the data dir's settings table.
    package var settingName: String { LibrarySettings.Key(self)?.rawValue ?? rawValue }

    /// The key in a batch manifest.
    package var manifestName: String { self == .targetLUFS ? "targetLufs" : rawValue }

    /// The library remembers every setting but the cap, which stays the app's 29 seconds.
    package var isLibrarySetting: Bool { self != .cap }

    /// What values the key takes, for help text.
    package var help: String {
        switch self {
        case .format: "m4a, caf, wav, aiff or mp3"
        case .codec: "pcm or ima4 (caf, aiff); the format's default when unset"
        case .cap: "more than 0 and less than 30 s"
        case .gap: "silence between clips, 0 to 1 s"
        case .trimSilence, .normalize: "on or off"
        case .targetLUFS: "-40 to -6"
        }
    }

    /// The key a library setting name spells, if any.
    package init?(settingName: String) {
        guard let key = Self.allCases.first(where: { $0.isLibrarySetting && $0.settingName == settingName }) else { return nil }
        self = key
    }
}
