import VoiceAlarmCore

/// The options that shape a ringtone, shared by `render` and `batch`, and the render settings they make.
enum RenderOptions {
    static let format: Option<RingtoneFormat?> = .choice(
        "format", value: "FORMAT", help: "m4a (AAC, default), caf, wav, aiff or mp3",
        RingtoneFormat.allCases.map { ($0.rawValue, $0) }, ignoringCase: true,
        refusal: { text, words in "unknown format '\(text)' (\(words.joined(separator: ", ")))" })
    /// Every codec is taken (one that contradicts the format is refused with the settings); completion
    /// offers the two a format leaves open.
    static let codec: Option<RingtoneCodec?> = .choice(
        "codec", value: "CODEC", help: "pcm (16-bit, caf/wav/aiff default) or ima4 (caf, aiff)",
        RingtoneCodec.allCases.map { ($0.rawValue, $0) }, offered: [RingtoneCodec.pcm16, .ima4].map(\.rawValue), ignoringCase: true,
        refusal: { text, words in "unknown codec '\(text)' (\(words.joined(separator: ", ")))" })
    static let cap: Option<Double?> = .number(
        "cap", value: "SECONDS", .open(lower: 0, upper: RenderSettings.hardLimit),
        help: "Longest ringtone, {range} (default \(NumberBounds.format(RenderSettings.defaultCap)))")
    static let gap: Option<Double?> = .number(
        "gap", value: "SECONDS", .closed(RenderSettings.gapRange),
        help: "Silence between clips, {range}, counted against the cap (default \(NumberBounds.format(RenderSettings.defaultGap)))")
    static let noTrimSilence = Flag("no-trim-silence", help: "Keep each clip's leading and trailing silence")
    static let targetLUFS: Option<Double?> = .number(
        "target-lufs", value: "LUFS", .closed(RenderSettings.targetLUFSRange),
        help: "Loudness to normalise to, {range} (default \(NumberBounds.format(RenderSettings.defaultTargetLUFS)))")
    static let noNormalize = Flag("no-normalize", help: "Leave the loudness as recorded")

    /// In the order help lists them.
    static let all: [any DeclaredOption] = [format, codec, cap, gap, noTrimSilence, targetLUFS, noNormalize]

    /// The render options as settings in `format`, or a usage error.
    static func settings(from parsed: ParsedArguments, format: RingtoneFormat) throws -> RenderSettings {
        var given: [(RenderSettingKey, RenderSettingKey.Value)] = [(.format, .format(format))]
        if let codec = try parsed[Self.codec] { given.append((.codec, .codec(codec))) }
        if let cap = try parsed[Self.cap] { given.append((.cap, .number(cap))) }
        if let gap = try parsed[Self.gap] { given.append((.gap, .number(gap))) }
        if let target = try parsed[Self.targetLUFS] { given.append((.targetLUFS, .number(target))) }
        if parsed[Self.noTrimSilence] { given.append((.trimSilence, .flag(false))) }
        if parsed[Self.noNormalize] { given.append((.normalize, .flag(false))) }
        var settings = RenderSettings()
        for (key, value) in given {
            do { try settings.set(key, value) } catch {
                throw UsageError("\(option(for: key).dashed): \(error.reason)", command: parsed.command)
            }
        }
        return settings
    }

    /// The option that sets a render setting.
    static func option(for key: RenderSettingKey) -> OptionSpec {
        switch key {
        case .format: format.spec
        case .codec: codec.spec
        case .cap: cap.spec
        case .gap: gap.spec
        case .targetLUFS: targetLUFS.spec
        case .trimSilence: noTrimSilence.spec
        case .normalize: noNormalize.spec
        }
    }
}
