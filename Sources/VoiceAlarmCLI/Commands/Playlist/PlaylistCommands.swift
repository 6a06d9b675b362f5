import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm playlist …` and `voicealarm manifesto …`: what alarms play, in the order help lists them.
enum PlaylistCommands: CommandGroup {
    static let commands: [any Command.Type] = [
        PlaylistCreateCommand.self, PlaylistAddCommand.self, PlaylistMoveCommand.self, PlaylistRemoveCommand.self,
        PlaylistDeleteCommand.self, PlaylistRenameCommand.self, PlaylistShowCommand.self, PlaylistListCommand.self,
        ManifestoSetCommand.self, ManifestoShowCommand.self,
    ]

    /// After an edit: the rebuilt alarms reported, the target shown (with `"rebuilds"`), and the
    /// cap note when clips no longer fit.
    static func edited(_ target: Target, _ summary: RebuildSummary, _ service: AlarmService, _ context: CommandContext) throws -> ExitCode {
        let status = Report.rebuilds(summary, context)
        try show(target, service, context, rebuilds: summary)
        try Report.capNote(of: target, service, context)
        return status
    }

    /// `{"name", "duration", "clips": [{"id", "title", "duration"}], "capNote"}` (with `"rebuilds"`
    /// after an edit), or numbered lines.
    static func show(_ target: Target, _ service: AlarmService, _ context: CommandContext, rebuilds: RebuildSummary? = nil) throws {
        let resolved = try service.playlists.existing(target)
        let clips = try service.playlists.clips(of: resolved)
        let json = TargetJSON(resolved, clips: clips, capNote: try service.playlists.capNote(of: resolved), rebuilds: rebuilds)
        try context.present(json) {
            let length = ShortID.length(for: try service.clips.all().map(\.idString))  // unambiguous among every clip
            for (i, clip) in clips.enumerated() {
                let head = String(format: "%d. %@  %7.2f s  ", i + 1, String(clip.idString.prefix(length)), clip.duration)
                context.console.result(head + context.fitted(clip.title, context.lineWidth - head.count))
            }
            if clips.isEmpty { context.say("\(resolved) has no recording yet: its alarms ring with the default tone.") }
        }
    }
}
