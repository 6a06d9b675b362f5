import Foundation
import VoiceAlarm
import VoiceAlarmDocuments

/// `voicealarm repair`: a damaged library brought back.
enum RepairCommand: Command {
    static let spec = CommandSpec(
        name: "repair", summary: "Bring back a damaged library and rebuild the scheduler's list", arguments: "",
        minimumArguments: 0, maximumArguments: 0, options: [],
        discussion: """
              When the library's database is damaged (empty, truncated, not a database, failing SQLite's
              check), every command refuses it rather than take it for a new library, and alarms keep
              ringing from what their scheduler holds. repair keeps what SQLite can still read, fills in
              the rest from the last-known-good copy (DATA-DIR/library-backup.json, rewritten after every
              change), moves the damaged file aside (never deletes it), rebuilds voice files and makes
              the scheduler hold exactly the restored alarms. On a healthy library it only rebuilds the
              scheduler's list. --json prints {"wasHealthy", "movedAside", "clips", "playlists",
              "alarms", "alarmsSalvaged", "alarmsFromBackup", "scheduled", "updated", "cancelled"}.
            """,
        examples: ["voicealarm repair", "voicealarm --data-dir ~/alarms repair --json"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        umask(0o077)
        let report = try LibraryRepair.run(try context.location(), warn: { context.say($0.line) })
        if context.json {
            context.console.result(JSONOutput.encode(RepairJSON(report)))
        } else {
            context.console.result(report.wasHealthy ? "healthy" : "restored")
        }
        if report.wasHealthy {
            context.say("The library was whole; the scheduler's list was rebuilt (\(report.alarms) alarms).")
        } else {
            context.say(
                "Restored \(report.clips) clips, \(report.playlists) playlists and \(report.alarms) alarms "
                    + "(\(report.alarmsSalvaged) read from the damaged database, \(report.alarmsFromBackup) from the backup); "
                    + "scheduled \(report.reconcile.scheduled.count + report.reconcile.updated.count).")
        }
        return .success
    }

    struct RepairJSON: Encodable {
        var wasHealthy: Bool, movedAside: String?, clips: Int, playlists: Int, alarms: Int
        var alarmsSalvaged: Int, alarmsFromBackup: Int, scheduled: [String], updated: [String], cancelled: [String]

        init(_ report: LibraryRepair.Report) {
            wasHealthy = report.wasHealthy
            movedAside = report.movedAside
            clips = report.clips
            playlists = report.playlists
            alarms = report.alarms
            alarmsSalvaged = report.alarmsSalvaged
            alarmsFromBackup = report.alarmsFromBackup
            scheduled = report.reconcile.scheduled.map { $0.uuidString.lowercased() }
            updated = report.reconcile.updated.map { $0.uuidString.lowercased() }
            cancelled = report.reconcile.cancelled.map { $0.uuidString.lowercased() }
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(wasHealthy, forKey: .wasHealthy); try c.encode(movedAside, forKey: .movedAside)
            try c.encode(clips, forKey: .clips); try c.encode(playlists, forKey: .playlists); try c.encode(alarms, forKey: .alarms)
            try c.encode(alarmsSalvaged, forKey: .alarmsSalvaged); try c.encode(alarmsFromBackup, forKey: .alarmsFromBackup)
            try c.encode(scheduled, forKey: .scheduled); try c.encode(updated, forKey: .updated); try c.encode(cancelled, forKey: .cancelled)
        }
        enum Keys: String, CodingKey { case wasHealthy, movedAside, clips, playlists, alarms, alarmsSalvaged, alarmsFromBackup, scheduled, updated, cancelled }
    }
}
