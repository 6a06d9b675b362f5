import Foundation
import VoiceAlarmFiles

/// Hidden `.…partial` files are written and renamed by a running command; one that outlived
/// its command (killed with SIGKILL) is removed the next time the library opens its folders.
enum StaleFiles {
    /// Old enough that no render still owns it (a render takes seconds).
    static let age: TimeInterval = 600

    static func sweep(_ folder: String, now: Date = Date()) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        where name.hasPrefix(".") && name.hasSuffix(FileSystem.temporarySuffix) {
            let path = "\(folder)/\(name)"
            let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
            if let modified, now.timeIntervalSince(modified) > age { unlink(path) }
        }
    }
}
