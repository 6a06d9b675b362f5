import Foundation
import VoiceAlarm
import VoiceAlarmDocuments

/// `voicealarm export FILE.tar`: the library in one archive, for another machine.
enum ExportCommand: Command {
    static let spec = CommandSpec(
        name: "export", summary: "Write the library (recordings, playlists, alarms, settings, holidays) to one tar file",
        arguments: "FILE.tar", minimumArguments: 1, maximumArguments: 1, options: [],
        discussion: """
              For a new bedside machine: every recording as stored (its FLAC copy), the playlists, the
              manifesto, the alarms with their ids, on/off, skips, voice switch, snooze and holidays
              switch, the render settings and the ramp, and the imported holidays, with a manifest of
              each file's length and SHA-256. Never paired phones, tokens, keys or certificates: pair
              again on the new machine. The playback device, folders and scheduler stay with this
              machine. The file is written whole or not at all (an older one stays until the new one
              is complete). Bring it back with 'voicealarm import FILE.tar'. --json prints
              {"archive", "bytes", "formatVersion", "clips", "playlists", "alarms", "holidays", "settings"}.
            """,
        examples: ["voicealarm export /media/usb/alarms.tar", "voicealarm --data-dir ~/alarms export backup.tar --json"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        umask(0o077)
        let service = try context.library()
        let exported = try LibraryExport.write(service, to: LibraryAccess.absolute(parsed.arguments[0]))
        context.present(ExportJSON(exported)) { context.console.result(exported.path) }
        context.say(
            "Wrote \(exported.clips) recording\(exported.clips == 1 ? "" : "s"), \(exported.playlists) playlist\(exported.playlists == 1 ? "" : "s") "
                + "and \(exported.alarms) alarm\(exported.alarms == 1 ? "" : "s") to \(exported.path) (\(exported.bytes / 1024) KB). "
                + "On the new machine: voicealarm import \((exported.path as NSString).lastPathComponent)")
        return .success
    }
}
