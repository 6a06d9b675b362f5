import Foundation
import VoiceAlarm
import VoiceAlarmCore

/// `voicealarm settings [KEY VALUE]`: the library's render settings.
enum SettingsCommand {
    static let spec = CommandSpec(
        name: "settings", summary: "Show or change the library's render settings", arguments: "[KEY VALUE]",
        minimumArguments: 0, maximumArguments: 2, options: [],
        discussion: "  Keys: " + LibrarySettings.keys.map { "\($0.settingName) (\($0.help))" }.joined(separator: "; ")
            + ".\n  A change rebuilds every voice alarm; files whose extension changed are removed.",
        examples: ["voicealarm settings", "voicealarm settings format caf", "voicealarm settings gap 0.5"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        var status = ExitCode.success
        let service = try context.library()
        switch parsed.arguments.count {
        case 0: break
        case 2:
            let name = parsed.arguments[0]
            guard let key = RenderSettingKey(settingName: name) else {
                throw UsageError("unknown setting '\(name)' (\(LibrarySettings.keys.map(\.settingName).joined(separator: ", ")))", command: spec.name)
            }
            do {
                let summary = try service.settings.change(key, to: parsed.arguments[1])
                status = Report.rebuilds(summary, context)
            } catch let error as SettingsError {
                throw UsageError(error.description, command: spec.name)
            }
        default:
            throw UsageError("give a KEY and a VALUE, or nothing to show the settings", command: spec.name)
        }
        let settings = try service.settings.current()
        let values: [(String, String)] = [
            ("format", settings.format.rawValue), ("codec", settings.codec.rawValue), ("gap", "\(settings.gap)"),
            ("trim-silence", settings.trimSilence ? "on" : "off"), ("normalize", settings.normalize ? "on" : "off"),
            ("target-lufs", "\(settings.targetLUFS)"), ("sounds-dir", service.soundsDirectory), ("data-dir", service.dataDirectory),
        ]
        if context.json {
            context.console.result(JSONOutput.encode(Dictionary(uniqueKeysWithValues: values)))
        } else {
            for (key, value) in values { context.console.result("\(key) = \(value)") }
        }
        return status
    }
}
