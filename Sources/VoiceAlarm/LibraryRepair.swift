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
public enum LibraryRepair {
    /// What a repair did.
    public struct Report: Sendable {
        /// True when the library was whole: nothing was restored.
        public var wasHealthy: Bool
        /// Where the damaged database now is, when it was moved aside.
        public var movedAside: String?
        /// What the restored library holds.
        public var clips: Int, playlists: Int, alarms: Int
        /// Alarms read from the damaged database itself, and from the last-known-good copy.
        public var alarmsSalvaged: Int, alarmsFromBackup: Int
        /// What the scheduler was given.
        public var reconcile: ReconcileReport
    }

    /// Why a library could not be repaired.
    public enum Failure: Error, CustomStringConvertible {
        case nothingToRestore(String)
        public var description: String {
            switch self {
            case .nothingToRestore(let path):
                "\(path): nothing can be read from it and there is no backup (\(LibraryBackup.fileName)); move it aside to start a new library"
            }
        }
    }

    public static func run(_ location: LibraryLocation, warn: @escaping (String) -> Void = { _ in }) throws -> Report {
        let dataDirectory = location.dataDirectory
        let path = "\(dataDirectory)/voicealarm.sqlite"
        var report = Report(wasHealthy: true, movedAside: nil, clips: 0, playlists: 0, alarms: 0, alarmsSalvaged: 0,
                            alarmsFromBackup: 0, reconcile: ReconcileReport())
        do {
            _ = try LibraryStore(dataDirectory: dataDirectory)
        } catch let error as StoreError {
            guard case .damaged = error else { throw error }
            report.wasHealthy = false
            let salvaged = LibraryBackup.salvage(path, dataDirectory: dataDirectory)
            let backup = LibraryBackup.read("\(dataDirectory)/\(LibraryBackup.fileName)") ?? LibraryBackup()
            guard !salvaged.isEmpty || !backup.isEmpty else { throw Failure.nothingToRestore(path) }
            let salvagedIDs = Set(salvaged.alarms.map(\.id))
            report.alarmsSalvaged = salvaged.alarms.count
            report.alarmsFromBackup = backup.alarms.filter { !salvagedIDs.contains($0.id) }.count
            report.movedAside = try FileSystem.moveAside(path)
            let store = try LibraryStore(dataDirectory: dataDirectory)
            try salvaged.filled(from: backup).restore(into: store)
            warn("The damaged library is kept as \(report.movedAside!).")
        }
        // The embedded list is made from the library: start it afresh, then reconcile fills it.
        let embedded = EmbeddedScheduler.databasePath(in: dataDirectory)
        if FileSystem.kind(of: embedded) != .missing {
            do {
                let list = try EmbeddedScheduler(dataDirectory: dataDirectory)
                for alarm in try list.alarms() { try list.cancel(id: alarm.id) }
            } catch let error as StoreError {
                guard case .damaged = error else { throw error }
                warn("The embedded scheduler's list was damaged; kept as \(try FileSystem.moveAside(embedded)).")
            }
        }
        let (service, _) = try LibraryOpener.open(location, warn: warn)
        report.reconcile = try service.sync.reconcile()
        report.clips = try service.clips.all().count
        report.playlists = try service.playlists.names().count
        report.alarms = try service.alarms.statuses().count
        return report
    }
}
