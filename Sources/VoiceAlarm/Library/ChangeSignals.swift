import Foundation
import VoiceAlarmFiles
import VoiceAlarmScheduling

/// What a change to a library or its machine moves, read cheaply (a `stat` each): whoever
/// changes it — a command at the terminal, the page, the daemon ringing, snoozing or finishing a
/// one-off — writes one of these files, and time moves every `next` each minute. A page that
/// stays live compares these before it reads the library again.
package enum ChangeSignals {
    /// The files and folders a change touches: the library and the daemon's list (each with its
    /// write-ahead log), the rings going on, and the test ring asked from the page.
    static let watched = [
        "voicealarm.sqlite", "voicealarm.sqlite-wal", "embedded-scheduler.sqlite", "embedded-scheduler.sqlite-wal",
        "ringing", TestRingDesk.folder,
    ]

    /// Each watched file's inode, size and modification time, whether a daemon runs, and the minute.
    package static func read(dataDirectory: String, now: Date) -> [String] {
        watched.map { name in
            (try? FileStamp(path: "\(dataDirectory)/\(name)")).map { "\($0.inode):\($0.size):\($0.modified)" } ?? "-"
        } + ["\(DaemonLock.isHeld(dataDirectory: dataDirectory))", "\(Int(now.timeIntervalSince1970 / 60))"]
    }
}
