import Foundation
import VoiceAlarmArchive
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmFiles
import VoiceAlarmStore

/// `voicealarm import FILE.tar`: a library brought from another machine (`LibraryExport`).
///
/// The whole archive is read first, with libarchive, into a private staging folder beside the
/// data dir (else in the temporary folder): within `ExportManifest.Limits`, files and folders
/// only, every path inside the archive's folder, every file named by the manifest with its
/// length and SHA-256, and the records consistent. Then it is planned against the library: into
/// one without alarms it restores everything under the same ids; into one with alarms only with
/// `merge`, and only when no id, name or alarm rule clashes (every clash is named, nothing is
/// imported). Until then nothing under the data dir has changed.
///
/// Then it applies, in an order that leaves the old library whole if killed: the recordings are
/// renamed into `clips/` under names no record uses yet (a kill leaves at most unnamed files),
/// then one transaction adds every record, then each imported alarm's ringtone is built and the
/// alarm scheduled through `ScheduleSync`, as `alarm add` does (a kill there leaves rebuilds
/// owed, which `reconcile` and the daemon make).
///
/// ```swift
/// let imported = try LibraryImport.run(service, archive: "/media/usb/alarms.tar", dryRun: false, merge: false)
/// ```
package enum LibraryImport {
    /// What an import did, or with `dryRun` would do.
    package struct Imported: Sendable {
        /// The archive, as an absolute path.
        package var archive: String
        package var dryRun: Bool
        /// True when the library held records before (a merge).
        package var merged: Bool
        package var formatVersion: Int
        /// Recordings added, and those the library already held (same id, same bytes).
        package var clips: [UUID], keptClips: [UUID]
        package var playlists: [String]
        /// Whether the archive's manifesto became the library's.
        package var manifesto: Bool
        package var alarms: [UUID]
        /// Holiday calendars added, and how many days they hold.
        package var calendars: [String], holidays: Int
        /// The settings restored, by name (none when the library had alarms).
        package var settings: [String]
        /// What building and scheduling the imported alarms did (empty on a dry run).
        package var rebuild: RebuildSummary
    }

    /// Checks the archive at `path` and, unless `dryRun`, imports it into `service`'s library.
    /// - Throws: `ArchiveError` or `ImportRefusal` with nothing changed; a store or file error
    ///   while applying (the library is then as it was, at most with unnamed files in `clips/`).
    package static func run(_ service: AlarmService, archive path: String, dryRun: Bool, merge: Bool) throws -> Imported {
        let archive = FileSystem.absolutePath(path)
        let staging = try stagingFolder(beside: service.dataDirectory)
        TemporaryFiles.registerFolder(staging)
        defer {
            FileSystem.removeTree(staging)
            TemporaryFiles.unregisterFolder(staging)
        }
        let staged = try Staged.read(archive, into: staging)
        let content = try Content.verify(staged, archive: archive)
        let now = service.now()
        let plan = try Plan.make(content, in: service.store, archive: archive, merge: merge, now: now, timeZone: service.timeZone)
        var imported = plan.report(archive: archive, dryRun: dryRun)
        guard !dryRun else { return imported }
        try apply(plan, content, to: service, archive: archive, merge: merge)
        imported.rebuild = try service.sync.refresh(plan.alarms.map(\.id))
        return imported
    }

    /// A private folder for the archive's files: beside the data dir (so the recordings are
    /// renamed, not copied, into it), else in the temporary folder.
    private static func stagingFolder(beside dataDirectory: String) throws -> String {
        let parent = (FileSystem.absolutePath(dataDirectory) as NSString).deletingLastPathComponent
        if FileSystem.isWritableDirectory(parent), let folder = try? TemporaryFiles.makePrivateFolder(prefix: ".voicealarm-import", in: parent) {
            return folder
        }
        return try TemporaryFiles.makePrivateFolder(prefix: "voicealarm-import")
    }

    private static func apply(_ plan: Plan, _ content: Content, to service: AlarmService, archive: String, merge: Bool) throws {
        let store = service.store
        try FileSystem.makeDirectory(store.clipsDirectory, permissions: 0o700)
        var moved: [String] = []
        do {
            for clip in plan.clips {
                let destination = "\(store.clipsDirectory)/\(clip.fileName)"
                try FileSystem.move(content.clipFiles[clip.id]!, to: destination, permissions: 0o600)
                moved.append(destination)
            }
            try store.transaction {
                // The rules and the writes they guard in one transaction: planned again here.
                let checked = try Plan.make(content, in: store, archive: archive, merge: merge, now: service.now(), timeZone: service.timeZone)
                guard Set(checked.clips.map(\.id)) == Set(plan.clips.map(\.id)) else {
                    throw ImportRefusal.clashes(archive: archive, ["the library changed while the archive was checked; import again"])
                }
                for (calendar, days) in checked.calendars { try store.replaceHolidays(of: calendar, with: days) }
                for clip in checked.clips { try store.insertClip(clip) }
                for name in checked.playlists {
                    try store.createPlaylist(name)
                    try store.setClips(content.records.playlistClips[name] ?? [], of: .playlist(name))
                }
                if checked.takesManifesto { try store.setClips(content.records.manifesto, of: .manifesto) }
                for alarm in checked.alarms { try store.insertAlarm(alarm) }
                if checked.restoresSettings {
                    try store.changeSettings { settings in
                        for key in LibraryExport.portableSettings { settings[stored: key] = content.records.settings[stored: key] }
                    }
                }
            }
        } catch {
            for path in moved { FileSystem.remove(path) }
            throw error
        }
    }
}

extension LibraryImport {
    /// The archive's files as read into the staging folder, by their path inside its folder.
    struct Staged {
        var files: [String: (staged: String, bytes: Int64)] = [:]

        /// Reads every entry, judging each header before its data: bounds, paths, kinds.
        static func read(_ archive: String, into folder: String) throws -> Staged {
            let reader = try TarReader(reading: archive)
            var staged = Staged(), entries = 0, total: Int64 = 0
            let folders: Set<String> = ["", ExportManifest.clipsFolder]
            while let entry = try reader.next() {
                entries += 1
                guard entries <= ExportManifest.Limits.entries else { throw ImportRefusal.tooManyEntries(archive: archive) }
                if let problem = ExportManifest.pathProblem(entry.path) {
                    throw ImportRefusal.unsafeEntry(archive: archive, entry: entry.path, reason: problem)
                }
                let relative = ExportManifest.relativePath(entry.path)
                switch entry.kind {
                case .directory:
                    guard folders.contains(relative) else { throw ImportRefusal.unlistedFile(archive: archive, entry: entry.path) }
                    continue
                case .regular: break
                default: throw ImportRefusal.notAFile(archive: archive, entry: entry.path, kind: entry.kind.rawValue)
                }
                guard staged.files[relative] == nil else { throw ImportRefusal.duplicateEntry(archive: archive, entry: entry.path) }
                guard entry.size <= ExportManifest.Limits.entryBytes else {
                    throw ArchiveError.entryTooLarge(path: archive, entry: entry.path, limit: ExportManifest.Limits.entryBytes)
                }
                guard total + entry.size <= ExportManifest.Limits.totalBytes else { throw ImportRefusal.tooLarge(archive: archive) }
                let path = "\(folder)/\(staged.files.count)"
                let bytes = try reader.extract(entry, to: path, limit: ExportManifest.Limits.entryBytes)
                total += bytes
                guard total <= ExportManifest.Limits.totalBytes else { throw ImportRefusal.tooLarge(archive: archive) }
                staged.files[relative] = (path, bytes)
            }
            return staged
        }
    }

    /// The verified archive: its manifest, its records, and the staged file of each clip.
    struct Content {
        var formatVersion: Int
        var records: LibraryBackup
        var clipFiles: [UUID: String]

        /// Checks the manifest against the files (each named, present, of its length and
        /// SHA-256), then the records against themselves.
        static func verify(_ staged: Staged, archive: String) throws -> Content {
            guard let manifestFile = staged.files[ExportManifest.fileName] else { throw ImportRefusal.noManifest(archive: archive) }
            let manifest: ExportManifest = try decode(manifestFile, ExportManifest.fileName, archive: archive) { data in
                struct Version: Decodable { var format: String?, formatVersion: Int? }
                let version = try JSONDecoder().decode(Version.self, from: data)
                guard version.format == ExportManifest.formatName, version.formatVersion == ExportManifest.currentVersion else {
                    throw ImportRefusal.unknownFormat(archive: archive, format: version.format ?? "(none)", version: version.formatVersion)
                }
                return try JSONDecoder().decode(ExportManifest.self, from: data)
            }
            var listed = Set<String>()
            for file in manifest.files {
                if ExportManifest.pathProblem("\(ExportManifest.folder)/\(file.path)") != nil || file.path == ExportManifest.fileName {
                    throw ImportRefusal.badManifest(archive: archive, entry: ExportManifest.fileName, reason: "it names '\(file.path)', which no archive holds")
                }
                guard listed.insert(file.path).inserted else {
                    throw ImportRefusal.badManifest(archive: archive, entry: ExportManifest.fileName, reason: "it names '\(file.path)' twice")
                }
                guard let present = staged.files[file.path] else { throw ImportRefusal.missingFile(archive: archive, entry: file.path) }
                guard present.bytes == file.bytes else { throw ImportRefusal.checksumMismatch(archive: archive, entry: file.path, what: "length") }
                guard try ContentHash.sha256(file: present.staged) == file.sha256.lowercased() else {
                    throw ImportRefusal.checksumMismatch(archive: archive, entry: file.path, what: "SHA-256")
                }
            }
            for path in staged.files.keys.sorted() where path != ExportManifest.fileName && !listed.contains(path) {
                throw ImportRefusal.unlistedFile(archive: archive, entry: "\(ExportManifest.folder)/\(path)")
            }
            guard let libraryFile = staged.files[ExportManifest.libraryFileName] else {
                throw ImportRefusal.missingFile(archive: archive, entry: ExportManifest.libraryFileName)
            }
            let records: LibraryBackup = try decode(libraryFile, ExportManifest.libraryFileName, archive: archive) {
                try JSONDecoder().decode(LibraryBackup.self, from: $0)
            }
            let content = Content(formatVersion: manifest.formatVersion, records: records, clipFiles: [:])
            return try content.checked(staged, listed: listed, archive: archive)
        }

        private static func decode<T>(_ file: (staged: String, bytes: Int64), _ name: String, archive: String, _ body: (Data) throws -> T) throws -> T {
            guard file.bytes <= ExportManifest.Limits.recordBytes, let data = FileSystem.contents(file.staged) else {
                throw ImportRefusal.badManifest(archive: archive, entry: name, reason: "larger than \(ExportManifest.Limits.recordBytes / 1024 / 1024) MB")
            }
            do { return try body(data) } catch let refusal as ImportRefusal { throw refusal } catch let error as DecodingError {
                throw ImportRefusal.badManifest(archive: archive, entry: name, reason: Self.reason(error))
            }
        }

        private static func reason(_ error: DecodingError) -> String {
            switch error {
            case .dataCorrupted: "not JSON"
            case .keyNotFound(let key, _): "'\(key.stringValue)' is missing"
            case .typeMismatch(_, let context), .valueNotFound(_, let context):
                "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' is not what it should be"
            @unknown default: "not the expected JSON"
            }
        }

        /// The records as one library: unique ids, each clip's file present with its hash, every
        /// file a clip's, playlists and alarms on known clips and targets.
        private func checked(_ staged: Staged, listed: Set<String>, archive: String) throws -> Content {
            func refuse(_ reason: String) -> ImportRefusal { .inconsistent(archive: archive, reason: reason) }
            var content = self
            var clipPaths = Set<String>()
            for clip in records.clips {
                let path = "\(ExportManifest.clipsFolder)/\(clip.fileName)"
                guard !clip.fileName.isEmpty, !clip.fileName.contains("/"), !clip.fileName.hasPrefix("."), clip.fileName.count <= 200 else {
                    throw refuse("clip \(clip.id.uuidString.lowercased()) names the file '\(clip.fileName)', which no library uses")
                }
                guard content.clipFiles[clip.id] == nil, clipPaths.insert(path).inserted else {
                    throw refuse("clip \(clip.id.uuidString.lowercased()) appears twice")
                }
                guard listed.contains(path), let file = staged.files[path] else {
                    throw refuse("clip \(clip.id.uuidString.lowercased())'s recording (\(path)) is not in the archive")
                }
                guard try ContentHash.sha256(file: file.staged) == clip.contentHash else {
                    throw refuse("clip \(clip.id.uuidString.lowercased())'s recording is not the one its record names (SHA-256 differs)")
                }
                if let problem = ClipTitle.problem(clip.title) { throw refuse("clip \(clip.id.uuidString.lowercased())'s title: \(problem)") }
                content.clipFiles[clip.id] = file.staged
            }
            for path in listed where path != ExportManifest.libraryFileName && !clipPaths.contains(path) {
                throw refuse("\(ExportManifest.folder)/\(path) is no clip's recording")
            }
            var names = Set<String>()
            for name in records.playlists {
                do { try PlaylistEditor.validateName(name) } catch { throw refuse("playlist '\(name)': \(error)") }
                guard names.insert(name.lowercased()).inserted else { throw refuse("playlist '\(name)' appears twice") }
                for clip in records.playlistClips[name] ?? [] where content.clipFiles[clip] == nil {
                    throw refuse("playlist '\(name)' plays clip \(clip.uuidString.lowercased()), which the archive lacks")
                }
            }
            for clip in records.manifesto where content.clipFiles[clip] == nil {
                throw refuse("the manifesto plays clip \(clip.uuidString.lowercased()), which the archive lacks")
            }
            var ids = Set<UUID>()
            for alarm in records.alarms {
                let id = alarm.id.uuidString.lowercased()
                guard let made = alarm.alarm, alarm.snoozeMinutes.map(Snooze.minutes.contains) ?? true else {
                    throw refuse("alarm \(id)'s time, days or snooze are not an alarm's")
                }
                guard ids.insert(alarm.id).inserted else { throw refuse("alarm \(id) appears twice") }
                if case .playlist(let name) = made.target, !records.playlists.contains(name) {
                    throw refuse("alarm \(id) plays playlist '\(name)', which the archive lacks")
                }
                if let label = made.label, PrintableText.hasControlCharacters(label) { throw refuse("alarm \(id)'s label holds control characters") }
            }
            return content
        }
    }

    /// What the archive adds to this library, or every clash that stops it.
    struct Plan {
        var merged: Bool
        var formatVersion: Int
        var clips: [LibraryClip] = [], keptClips: [UUID] = []
        var playlists: [String] = []
        var takesManifesto = false
        var alarms: [Alarm] = []
        var calendars: [(String, [Holiday])] = []
        var restoresSettings = false
        var settings: [String] = []

        static func make(_ content: Content, in store: LibraryStore, archive: String, merge: Bool, now: Date, timeZone: TimeZone) throws -> Plan {
            let records = content.records
            let existingAlarms = try store.alarms().map(\.alarm)
            let existingClips = Dictionary(try store.clips().map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let existingFiles = Set(existingClips.values.map(\.fileName))
            let existingPlaylists = Set(try store.playlistNames().map { $0.lowercased() })
            let existingManifesto = try store.clips(of: .manifesto)
            let existingHolidays = Dictionary(grouping: try store.holidays(), by: \.calendar)
            guard existingAlarms.isEmpty || merge else { throw ImportRefusal.libraryHasAlarms(archive: archive, count: existingAlarms.count) }

            var plan = Plan(merged: !existingAlarms.isEmpty || !existingClips.isEmpty || !existingPlaylists.isEmpty, formatVersion: content.formatVersion)
            var clashes: [String] = []
            for clip in records.clips {
                let id = clip.id.uuidString.lowercased()
                if let held = existingClips[clip.id] {
                    if held.contentHash == clip.contentHash {
                        plan.keptClips.append(clip.id)
                    } else {
                        clashes.append("clip \(id) is another recording in this library")
                    }
                } else if existingFiles.contains(clip.fileName) {
                    clashes.append("clip \(id)'s file \(clip.fileName) is another clip's in this library")
                } else {
                    plan.clips.append(clip.libraryClip)
                }
            }
            for name in records.playlists {
                if existingPlaylists.contains(name.lowercased()) {
                    clashes.append("a playlist named '\(name)' is already in this library")
                } else {
                    plan.playlists.append(name)
                }
            }
            if !records.manifesto.isEmpty {
                if existingManifesto.isEmpty {
                    plan.takesManifesto = true
                } else if existingManifesto != records.manifesto {
                    clashes.append("this library's manifesto plays other clips than the archive's")
                }
            }
            for (calendar, days) in Dictionary(grouping: records.holidays ?? [], by: \.calendar).sorted(by: { $0.key < $1.key }) {
                if let held = existingHolidays[calendar] {
                    if Set(held) != Set(days) { clashes.append("the holidays '\(calendar)' in this library are other days than the archive's") }
                } else {
                    plan.calendars.append((calendar, days))
                }
            }
            let heldIDs = Set(existingAlarms.map(\.id))
            var placed = existingAlarms
            for alarm in records.alarms.compactMap(\.alarm) {
                if heldIDs.contains(alarm.id) {
                    clashes.append("alarm \(alarm.idString) is already in this library")
                    continue
                }
                if !alarm.isFinished(at: now, in: timeZone), let violation = AlarmRules.violation(adding: alarm, to: placed, now: now, timeZone: timeZone) {
                    clashes.append(
                        "alarm \(alarm.idString) (\(alarm.target) at \(alarm.time) \(alarm.date.map(\.description) ?? alarm.days.list)) \(violation)")
                }
                placed.append(alarm)
                plan.alarms.append(alarm)
            }
            guard clashes.isEmpty else { throw ImportRefusal.clashes(archive: archive, clashes) }
            if existingAlarms.isEmpty {
                plan.restoresSettings = true
                plan.settings = records.settings.storedKeys.filter(LibraryExport.portableSettings.contains).map(\.rawValue)
            }
            return plan
        }

        func report(archive: String, dryRun: Bool) -> Imported {
            Imported(
                archive: archive, dryRun: dryRun, merged: merged, formatVersion: formatVersion, clips: clips.map(\.id), keptClips: keptClips,
                playlists: playlists, manifesto: takesManifesto, alarms: alarms.map(\.id), calendars: calendars.map(\.0),
                holidays: calendars.reduce(0) { $0 + $1.1.count }, settings: settings, rebuild: RebuildSummary())
        }
    }
}
