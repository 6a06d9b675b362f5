import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm settings [KEY VALUE]`: the library's render settings and its playback device.
enum SettingsCommand: Command {
    static let spec = CommandSpec(
        name: "settings", summary: "Show or change the library's render settings and playback device", arguments: "[KEY VALUE]",
        minimumArguments: 0, maximumArguments: 2, options: [],
        discussion: "  Keys: " + LibrarySettings.renderKeys.map { "\($0.settingName) (\($0.help))" }.joined(separator: "; ")
            + "; device (the ALSA device alarms ring on: rings, listen, the daemon, systemd units and doctor use it)"
            + "; ramp (seconds over which a ring rises from quiet to full level, 0 to 120; 0, the default, for none)"
            + ".\n  A render setting's change rebuilds every voice alarm; files whose extension changed are removed.",
        examples: ["voicealarm settings", "voicealarm settings format caf", "voicealarm settings gap 0.5", "voicealarm settings device plughw:1,0"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        var status = ExitCode.success
        let service = try context.library()
        switch parsed.arguments.count {
        case 0: break
        case 2:
            let name = parsed.arguments[0]
            do {
                switch LibrarySettings.Key(rawValue: name) {
                case .ramp:
                    try service.settings.setRamp(parsed.arguments[1])
                case .device:
                    let report = try service.settings.setDevice(parsed.arguments[1])
                    if !report.updated.isEmpty {
                        context.say("Re-wrote \(report.updated.count) alarm unit\(report.updated.count == 1 ? "" : "s") for the device.")
                    }
                    if let problem = try Doctor(service: service).examine().problems.first(where: { if case .deviceDoesNotOpen = $0 { true } else { false } }) {
                        context.console.note("warning: \(problem.sentence(libraryOpens: true))")
                    }
                default:
                    guard let key = RenderSettingKey(settingName: name) else {
                        let names = LibrarySettings.Key.allCases.filter(\.isSetByName).map(\.rawValue)
                        throw UsageError("unknown setting '\(name)' (\(names.joined(separator: ", ")))", command: spec.name)
                    }
                    status = Report.rebuilds(try service.settings.change(key, to: parsed.arguments[1]), context)
                }
            } catch let error as SettingsError {
                throw UsageError(error.description, command: spec.name)
            }
        default:
            throw UsageError("give a KEY and a VALUE, or nothing to show the settings", command: spec.name)
        }
        let settings = try service.settings.current()
        let json = SettingsJSON(
            format: settings.format.rawValue, codec: settings.codec.rawValue, gap: Report.seconds(settings.gap),
            trimSilence: settings.trimSilence, normalize: settings.normalize, targetLufs: settings.targetLUFS,
            device: try service.settings.device() ?? "default", ramp: Report.seconds(try service.settings.ramp()),
            soundsDir: service.soundsDirectory, dataDir: service.dataDirectory)
        context.present(json) {
            typealias Key = LibrarySettings.Key
            let values: [(String, String)] = [
                (Key.format.rawValue, json.format), (Key.codec.rawValue, json.codec), (Key.gap.rawValue, "\(json.gap)"),
                (Key.trimSilence.rawValue, json.trimSilence ? "on" : "off"), (Key.normalize.rawValue, json.normalize ? "on" : "off"),
                (Key.targetLUFS.rawValue, "\(json.targetLufs)"), (Key.device.rawValue, json.device), (Key.ramp.rawValue, "\(json.ramp)"),
                (Key.soundsDirectory.rawValue, json.soundsDir), ("data-dir", json.dataDir),
            ]
            for (key, value) in values { context.console.result("\(key) = \(value)") }
        }
        return status
    }

    /// `settings --json`: typed values under camelCase keys (`gap` and `ramp` in seconds, `targetLufs` in LUFS).
    struct SettingsJSON: Encodable {
        var format: String, codec: String, gap: Double, trimSilence: Bool, normalize: Bool, targetLufs: Double
        var device: String, ramp: Double, soundsDir: String, dataDir: String
    }
}
