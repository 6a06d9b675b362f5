import Foundation
import VoiceAlarm
import VoiceAlarmDocuments

/// `voicealarm import FILE.tar [--dry-run] [--merge]`: a library brought from another machine.
enum ImportCommand: Command {
    static let spec = CommandSpec(
        name: "import", summary: "Bring back a library from a file 'voicealarm export' wrote", arguments: "FILE.tar",
        minimumArguments: 1, maximumArguments: 1, options: [dryRun, merge],
        discussion: """
              Reads the whole archive first and checks it before anything changes: only files and
              folders inside its folder, at most 128 MB a file, 4 GB and 10000 entries in all, every file
              named in its manifest with its length and SHA-256, a format version this voicealarm reads.
              Into a library without alarms it restores everything under the same ids, with the
              settings; into one with alarms only with --merge, keeping that library's settings, and
              only when no id, playlist name or alarm rule (the same minute, five per target) clashes:
              every clash is named and nothing is imported. Then the ringtones are built and the alarms
              scheduled, as 'alarm add' does. --dry-run says what would be imported and writes nothing.
              --json prints {"archive", "dryRun", "merged", "formatVersion", "clips", "keptClips",
              "playlists", "manifesto", "alarms", "calendars", "holidays", "settings", "rebuild"}.
            """,
        examples: ["voicealarm import /media/usb/alarms.tar --dry-run", "voicealarm import alarms.tar", "voicealarm import old.tar --merge --json"])

    static let dryRun = Flag("dry-run", help: "Say what would be imported; change nothing")
    static let merge = Flag("merge", help: "Add to a library that already has alarms (nothing may clash)")

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        umask(0o077)
        let dry = parsed[Self.dryRun], merging = parsed[Self.merge]
        let service = try context.library()
        let imported = try LibraryImport.run(service, archive: LibraryAccess.absolute(parsed.arguments[0]), dryRun: dry, merge: merging)
        context.present(ImportJSON(imported)) {
            for id in imported.alarms { context.console.result(id.uuidString.lowercased()) }
        }
        let clips = imported.clips.count, playlists = imported.playlists.count, alarms = imported.alarms.count
        let what =
            "\(clips) recording\(clips == 1 ? "" : "s"), \(playlists) playlist\(playlists == 1 ? "" : "s"), \(alarms) alarm\(alarms == 1 ? "" : "s")"
            + (imported.manifesto ? ", the manifesto" : "") + (imported.holidays > 0 ? ", \(imported.holidays) holidays" : "")
            + (imported.settings.isEmpty ? "" : ", settings (\(imported.settings.joined(separator: ", ")))")
            + (imported.keptClips.isEmpty ? "" : "; \(imported.keptClips.count) recording\(imported.keptClips.count == 1 ? " is" : "s are") here already")
        if imported.dryRun {
            context.say("Would import \(what). Nothing was changed (--dry-run).")
            return .success
        }
        context.say("Imported \(what).")
        return Report.rebuilds(imported.rebuild, context)
    }
}
