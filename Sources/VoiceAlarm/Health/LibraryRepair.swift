import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles
import VoiceAlarmScheduling
import VoiceAlarmStore

/// `voicealarm repair`: brings a damaged library back. What SQLite can still read of the
/// damaged database is kept, the last-known-good copy (`LibraryBackup`) fills in the rest, the
/// damaged file is moved aside (never deleted), and the scheduler is made to hold exactly the
/// restored alarms again — the embedded scheduler's list rebuilt from the library.
///
/// ```swift
/// let report = try LibraryRepair.run(location, warn: { print($0) })
/// ```
package enum LibraryRepair {
    /// What a repair did.
    package struct Report: Sendable {
        /// True when the library was whole: nothing was restored.
        package var wasHealthy: Bool
        /// Where the damaged database now is, when it was moved aside.
        package var movedAside: String?
        /// What the restored library holds.
        package var clips: Int, playlists: Int, alarms: Int
        /// Alarms found only in the damaged database itself, and those from the last-known-good copy.
        package var alarmsSalvaged: Int, alarmsFromBackup: Int
        /// What the scheduler was given.
        package var reconcile: ReconcileReport
    }

    /// Why a library could not be repaired.
    package enum Failure: ClassifiedError, CustomStringConvertible {
        case nothingToRestore(String)
        package var failureKind: FailureKind { .environment }
        package var failureInput: String? {
            switch self {
            case .nothingToRestore(let path): path
            }
        }
        package var description: String {
            switch self {
            case .nothingToRestore(let path):
                "\(path): nothing can be read from it and there is no backup (\(LibraryBackup.fileName)); move it aside to start a new library"
            }
        }
    }

    package static func run(_ location: LibraryLocation, warn: @escaping (ServiceWarning) -> Void = { _ in }) throws -> Report {
        let dataDirectory = location.dataDirectory
        let path = "\(dataDirectory)/voicealarm.sqlite"
        var report = Report(
            wasHealthy: true, movedAside: nil, clips: 0, playlists: 0, alarms: 0, alarmsSalvaged: 0,
            alarmsFromBackup: 0, reconcile: ReconcileReport())
        do {
            _ = try LibraryStore(dataDirectory: dataDirectory)
        } catch let error as StoreError {
            guard case .damaged = error else { throw error }
            report.wasHealthy = false
            let salvaged = LibraryBackup.salvage(path, dataDirectory: dataDirectory)
            let backup = LibraryBackup.read("\(dataDirectory)/\(LibraryBackup.fileName)") ?? LibraryBackup()
            guard !salvaged.isEmpty || !backup.isEmpty else { throw Failure.nothingToRestore(path) }
            // The backup is written after every change, so it wins; what only the damaged file still holds fills gaps.
            let backupIDs = Set(backup.alarms.map(\.id))
            report.alarmsFromBackup = backup.alarms.count
            report.alarmsSalvaged = salvaged.alarms.filter { !backupIDs.contains($0.id) }.count
            if FileSystem.kind(of: path) != .missing {
                report.movedAside = try FileSystem.moveAside(path)
                warn(.libraryMovedAside(report.movedAside!))
            }
            try backup.filled(from: salvaged).restoreAsLibrary(in: dataDirectory)
        }
        // The embedded list is made from the library: a damaged one is moved aside (the opener
        // does that), a whole one is brought in step by reconcile — never emptied first.
        let (service, _) = try LibraryOpener.open(location, warn: warn)
        report.reconcile = try service.sync.reconcile()
        report.clips = try service.clips.all().count
        report.playlists = try service.playlists.names().count
        report.alarms = try service.alarms.statuses().count
        return report
    }
}
