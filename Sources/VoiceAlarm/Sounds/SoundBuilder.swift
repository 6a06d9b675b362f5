import Foundation
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmFiles
import VoiceAlarmStore

/// Decides what each alarm plays and keeps its voice file in step: the rules of
/// "wake up to my voice", apart from scheduling.
///
/// - identity unchanged (same clips' audio, ranges and settings) and the file still passes its
///   check → untouched;
/// - a clip whose recording is missing or no longer decodes → left out, with a warning;
///   none left → the default tone;
/// - the render fails → the default tone with the reason, and the old file deleted (an old
///   recording is the wrong sound);
/// - a new file in another format (a format change) → the old one is left for the scheduling
///   step to remove once the scheduler names the new one (`ScheduleSync.retireStaleFiles`);
/// - voice off → the default tone, and the file deleted.
///
/// Rendering and checking go through `RingtoneRendering` and `SoundChecking`, so these rules
/// are tested with fakes in milliseconds:
/// ```swift
/// let builder = SoundBuilder(store: store, sounds: sounds, renderer: LibraryRenderer(), checker: InspectingSoundChecker())
/// switch builder.build(stored, settings: try builder.settings()) { … }
/// ```
package final class SoundBuilder {
    /// What building one alarm's sound did.
    package enum Outcome: Equatable, Sendable {
        /// The voice file already matched the recordings and settings.
        case unchanged
        /// The voice file was (re)written under this name; `shortfall` when it was left under
        /// its loudness target.
        case built(fileName: String, shortfall: LoudnessShortfall?)
        /// The alarm rings with the default tone, and why.
        case defaultTone(DefaultToneReason)
        /// The machine stopped the rebuild (no space, read-only, an I/O error): the alarm keeps
        /// its voice file, which still matches its recordings, and the rebuild is owed. Why.
        case deferred(String)
    }

    package let store: LibraryStore
    package let sounds: SoundsDirectory
    let renderer: any RingtoneRendering
    let checker: any SoundChecking
    let warn: (ServiceWarning) -> Void

    /// - Parameters:
    ///   - renderer: makes a ringtone from clips (`LibraryRenderer` in the product).
    ///   - checker: says whether a voice file can ring (`InspectingSoundChecker` in the product).
    ///   - warn: told what the person should know (clips left out, failed builds).
    package init(
        store: LibraryStore, sounds: SoundsDirectory, renderer: any RingtoneRendering = LibraryRenderer(),
        checker: any SoundChecking = InspectingSoundChecker(), warn: @escaping (ServiceWarning) -> Void = { _ in }
    ) {
        self.store = store
        self.sounds = sounds
        self.renderer = renderer
        self.checker = checker
        self.warn = warn
    }

    /// The library's render settings, as remembered in the data dir.
    package func settings() throws -> RenderSettings {
        try store.settings().renderSettings()
    }

    /// Brings one alarm's voice file in line with its target and `settings`. Never throws.
    ///
    /// A failure of the content (a clip that no longer decodes, a silent result) ends on the
    /// default tone, the old file deleted: an old recording is the wrong sound. A failure of the
    /// machine (no space, read-only, an I/O error) keeps a voice file that still matches the
    /// alarm's recordings — for a format change, the old format until the new one is written —
    /// and owes the rebuild (`deferred`); only a file that no longer matches them goes.
    package func build(_ stored: StoredAlarm, settings: RenderSettings) -> Outcome {
        let alarm = stored.alarm
        var recordings: String?
        do {
            guard alarm.voice else { return try fallBack(stored, .voiceOff) }
            var clips = try usableClips(of: alarm.target)
            guard !clips.isEmpty else { return try fallBack(stored, .noRecording) }
            let fileName = SoundsDirectory.fileName(for: alarm.id, format: settings.format)
            while true {
                recordings = Self.recordings(clips)
                let identity = ContentHash.sha256(LibraryPlan(clips: clips, settings: settings).identity)
                if stored.soundIdentity == identity, stored.soundFile == fileName, problem(with: fileName, of: stored, recording: true) == nil {
                    if stored.soundRecordings != recordings { try? store.setSoundRecordings(recordings!, for: alarm.id) }
                    return .unchanged
                }
                let shortfall: LoudnessShortfall?
                do {
                    shortfall = try renderer.render(clips, settings: settings, clipsDirectory: store.clipsDirectory, to: sounds.path(of: fileName))
                } catch let unusable as UnusableClip {
                    // One unusable clip is left out of its playlist's ringtone, with a warning.
                    let bad = clips[unusable.index]
                    warn(.clipUnusable(clip: bad.id, title: bad.title, target: alarm.target, reason: WarningCause(unusable.reason)))
                    clips.removeAll { $0.id == bad.id }
                    guard !clips.isEmpty else { return try fallBack(stored, .noUsableRecording) }
                    continue
                }
                // A file that stays readable by others still rings: warned of, never a reason to lose the voice.
                do { try sounds.makePrivate(fileName) } catch {
                    warn(.soundFileNotPrivate(alarm: alarm.id, path: error.path, error: WarningCause(error)))
                }
                let stamp = (try? FileStamp(path: sounds.path(of: fileName))).flatMap { $0.isExact ? $0 : nil }  // checked by the render just now
                try store.setSound(for: alarm.id, file: fileName, identity: identity, reason: nil, stamp: stamp, recordings: recordings)
                // The old file (another format) stays until the scheduler names the new one (`ScheduleSync`):
                // a ring the scheduler starts meanwhile, even from a library it cannot read, finds it.
                if try store.alarm(alarm.id) == nil { removeFiles(of: alarm.id) }  // removed meanwhile
                if let shortfall { warn(.ringtoneQuiet(alarm: alarm.id, shortfall: shortfall)) }
                return .built(fileName: fileName, shortfall: shortfall)
            }
        } catch {
            if Self.isEnvironmental(error), let file = stored.soundFile, let recordings, stored.soundRecordings == recordings,
                problem(with: file, of: stored) == nil
            {
                try? store.markRebuildPending(alarm.id, reason: "\(error)")
                warn(.rebuildDeferred(alarm: alarm.id, error: WarningCause(error), keptFile: file))
                return .deferred("\(error)")
            }
            // A failed rebuild deletes the old voice file: an old recording is the wrong sound. An
            // inaudible result is treated as a silent one, with its own reason.
            let reason: DefaultToneReason
            if case .inaudible(_, let problem) = error as? AudioError {
                reason = .inaudible(problem)
            } else {
                reason = .buildFailed("\(error)")
            }
            warn(.onDefaultTone(alarm: alarm.id, reason: reason))
            return (try? fallBack(stored, reason)) ?? .defaultTone(reason)
        }
    }

    /// Records, for voice files built before recordings were remembered, which recordings they
    /// were made from — when their identity under `settings` (the ones they were built with)
    /// proves it — so a later rebuild the machine stops can keep them.
    func noteRecordings(builtWith settings: RenderSettings) {
        for stored in (try? store.alarms()) ?? [] where stored.alarm.voice && stored.soundFile != nil && stored.soundRecordings == nil {
            // The identity the file was built with may be an earlier processing's: any proves it.
            guard let clips = try? usableClips(of: stored.alarm.target, warning: false), !clips.isEmpty else { continue }
            guard Self.identities(of: LibraryPlan(clips: clips, settings: settings)).contains(stored.soundIdentity ?? "") else { continue }
            try? store.setSoundRecordings(Self.recordings(clips), for: stored.alarm.id)
        }
    }

    /// The voice alarms that owe a rebuild, reading the library's clips once for all of them and
    /// each target's once: marked so by a rebuild the machine stopped; on the default tone; or —
    /// when the machine refused the mark as well (a full disk refuses the database's write too) —
    /// whose file is still of the alarm's recordings but is not what `settings` build: another
    /// format, or an identity no processing of these settings gives. A file of an earlier
    /// processing is not rebuilt unasked. When the clips cannot be read, the marks and the default
    /// tone alone decide.
    func owingRebuild(_ alarms: [StoredAlarm], settings: RenderSettings) -> [StoredAlarm] {
        let library = try? Dictionary(uniqueKeysWithValues: store.clips().map { ($0.id, $0) })
        var targets: [Target: (recordings: String, identities: Set<String>)?] = [:]
        func built(_ target: Target) -> (recordings: String, identities: Set<String>)? {
            if let known = targets[target] { return known }
            var made: (recordings: String, identities: Set<String>)?
            if let library, let clips = try? usableClips(of: target, in: library, warning: false), !clips.isEmpty {
                made = (Self.recordings(clips), Self.identities(of: LibraryPlan(clips: clips, settings: settings)))
            }
            targets[target] = .some(made)
            return made
        }
        return alarms.filter { stored in
            guard stored.alarm.voice else { return false }
            if stored.rebuildPending != nil { return true }
            if case .defaultTone = resolve(stored) { return true }
            guard let file = stored.soundFile, let built = built(stored.alarm.target), stored.soundRecordings == built.recordings else { return false }
            return file != SoundsDirectory.fileName(for: stored.alarm.id, format: settings.format)
                || !built.identities.contains(stored.soundIdentity ?? "")
        }
    }

    /// `plan`'s identity under the current processing and every earlier one.
    private static func identities(of plan: LibraryPlan) -> Set<String> {
        Set((1...RenderSettings.processing).map { ContentHash.sha256(plan.identity(processing: $0)) })
    }

    /// The recordings a ringtone is made from, apart from any setting: the clips' audio in order.
    static func recordings(_ clips: [LibraryClip]) -> String {
        ContentHash.sha256((["recordings-v1"] + clips.map(\.contentHash)).joined(separator: "|"))
    }

    /// Whether a failure is the machine's (the same build may work once it is fixed), not the recordings'.
    static func isEnvironmental(_ error: any Error) -> Bool {
        switch error {
        case let error as AudioError: error.isEnvironmental
        case let error as StoreError: error.isEnvironmental
        case is SystemError: true
        default: false
        }
    }

    /// What an alarm will actually play: its voice file only when it is on, present and passes
    /// the shippable check; otherwise the default tone, with the reason.
    package func resolve(_ stored: StoredAlarm) -> SoundResolution {
        guard stored.alarm.voice else { return .voiceOff }
        guard let file = stored.soundFile else { return .defaultTone(stored.soundReason.map(DefaultToneReason.init(recorded:)) ?? .noRecording) }
        if let problem = problem(with: file, of: stored) { return .defaultTone(.voiceFile(file, problem)) }
        return .voice(fileName: file)
    }

    /// Why an alarm's voice file cannot ring, or nil. A file whose size, modification time and
    /// inode are those recorded when it last passed is not decoded again. A build (`recording`)
    /// records the stamp of a file that passes anew; listings and rings only read, so they never
    /// wait on the database.
    func problem(with file: String, of stored: StoredAlarm, recording: Bool = false) -> SoundProblem? {
        let path = sounds.path(of: file)
        guard let stamp = try? FileStamp(path: path) else { return .missing }
        // A file this user cannot read (left by root, say) cannot ring, whatever its stamp says.
        guard FileSystem.isReadable(path) else { return .unreadable }
        if stamp.matches(stored.soundStamp) { return nil }
        if let problem = checker.problem(with: path) { return problem }
        if recording, stamp.isExact { try? store.setSoundStamp(stamp, for: stored.alarm.id) }
        return nil
    }

    /// The target's clips in order, without those whose stored recording is gone (with a warning).
    private func usableClips(of target: Target, in library: [UUID: LibraryClip]? = nil, warning: Bool = true) throws -> [LibraryClip] {
        let all = try library ?? Dictionary(uniqueKeysWithValues: store.clips().map { ($0.id, $0) })
        return try store.clips(of: target).compactMap { all[$0] }.filter { clip in
            let present = FileSystem.kind(of: "\(store.clipsDirectory)/\(clip.fileName)") != .missing
            if !present, warning { warn(.clipMissing(clip: clip.id, title: clip.title, target: target)) }
            return present
        }
    }

    /// Removes the voice files of `id` but `keeping` (see `SoundsDirectory.removeFiles`); each
    /// that stays is warned of (`ServiceWarning.soundFileNotRemoved`) and the work goes on: the
    /// store no longer names it, so it can never ring in place of the right sound.
    func removeFiles(of id: UUID, keeping: String? = nil, temporaries: Bool = true) {
        for failure in sounds.removeFiles(of: id, keeping: keeping, temporaries: temporaries) {
            warn(.soundFileNotRemoved(alarm: id, path: failure.path, error: WarningCause(failure)))
        }
    }

    /// Records the default tone for an alarm, then deletes its voice file (record first, so the
    /// store never points at a file that is gone).
    /// An alarm already recorded so is left as it is: walking every alarm writes nothing for it.
    private func fallBack(_ stored: StoredAlarm, _ reason: DefaultToneReason) throws -> Outcome {
        let id = stored.alarm.id
        let recorded =
            stored.soundFile == nil && stored.soundIdentity == nil && stored.soundReason == reason.description
            && stored.soundStamp == nil && stored.soundRecordings == nil && stored.rebuildPending == nil
        if !recorded { try store.setSound(for: id, file: nil, identity: nil, reason: reason.description) }
        removeFiles(of: id)
        return .defaultTone(reason)
    }
}
