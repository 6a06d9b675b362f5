import Foundation

/// `voicealarm batch` (ringtones for a manifest) and `voicealarm build` (for the library's alarms),
/// in the order help lists them.
enum BatchCommands: CommandGroup {
    static let commands: [any Command.Type] = [BatchCommand.self, BuildCommand.self]

    /// `batch` and `build` alike.
    static let jobs: Option<Double> = .number(
        "jobs", short: "j", value: "N", .closed(1...256), default: Double(ProcessInfo.processInfo.activeProcessorCount),
        help: "Ringtones built at once, {range} (default: the number of cores)")
}
