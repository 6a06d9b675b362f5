import Foundation
import VoiceAlarmFiles

/// Hidden `.…partial` files are written and renamed by a running command; one that outlived
/// its command (killed with SIGKILL) is removed the next time the library opens its folders
/// (`FileSystem.removeAbandonedTemporaries`: at once when it names its owner, which is gone).
enum StaleFiles {
    /// Old enough that no render still owns a temporary file that does not name its owner.
    static let age = FileSystem.abandonedTemporaryAge

    static func sweep(_ folder: String, now: Date = Date()) {
        FileSystem.removeAbandonedTemporaries(in: folder, olderThan: age, now: now)
    }
}
