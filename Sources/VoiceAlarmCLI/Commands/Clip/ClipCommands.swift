import VoiceAlarmCore

/// `voicealarm clip …`: the recordings in the library, in the order help lists them.
enum ClipCommands: CommandGroup {
    static let commands: [any Command.Type] = [
        ClipImportCommand.self, ClipSayCommand.self, ClipReplaceCommand.self, ClipRenameCommand.self,
        ClipListCommand.self, ClipRemoveCommand.self, ClipRecordCommand.self,
    ]

    /// `--title`, refused as a usage error when it holds control characters (as `--label` is).
    static func title(help: String) -> Option<String?> {
        .text("title", value: "TEXT", help: help, problem: { ClipTitle.problem($0) })
    }
}
