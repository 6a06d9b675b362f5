import Foundation
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmFiles
import VoiceAlarmStore

/// The library's recordings: each kept whole as a lossless copy in `clips/`, measured once
/// (exact length, trimmed range, content hash) so no ringtone is ever planned by decoding.
/// Giving a clip new audio or removing it rebuilds exactly the alarms that use it.
package final class ClipCatalogue {
    let store: LibraryStore
    let sync: ScheduleSync
    let ids: IDResolver

    init(store: LibraryStore, sync: ScheduleSync) {
        self.store = store
        self.sync = sync
        ids = IDResolver(store: store)
    }

    /// A clip just stored, with the loudness measured while it was stored.
    package struct Stored: Sendable {
        package var clip: LibraryClip
        /// Integrated loudness of the whole recording.
        package var loudness: Loudness
        /// What was left out at the recording's end (a take or a salvage kept up to its last
        /// whole frame); nil when it was kept whole.
        package var cutOff: CutOff?
    }

    /// What removing clips did.
    package struct Removed: Sendable {
        /// The clips removed, in the order they were named.
        package var clips: [LibraryClip]
        /// The playlists and manifesto they were taken out of.
        package var targets: [Target]
        package var summary: RebuildSummary
    }

    /// Stores a recording and returns the new clip. Refuses files that are not audio, or silent.
    package func add(_ file: String, title: String?) throws -> LibraryClip {
        try store(file, title: title).clip
    }

    /// Stores a recording, returning the clip and its measured loudness.
    /// - Parameters:
    ///   - damage: `.refuse` for a file imported as it is; `.keepWhatDecodes` for a take (a phone's
    ///     upload, the microphone) or a salvage: kept up to its last whole frame, what was cut
    ///     in `Stored.cutOff`.
    /// - Throws: `LibraryError.invalidTitle` for a title with control characters (checked before
    ///   anything is read); `AudioError` for a file that is not a usable recording.
    package func store(_ file: String, title: String?, damage: AudioDecoder.Damage = .refuse) throws -> Stored {
        try store(file, title: title, spokenText: nil, damage: damage)
    }

    func store(_ file: String, title: String?, spokenText: String?, damage: AudioDecoder.Damage = .refuse) throws -> Stored {
        if let title, let problem = ClipTitle.problem(title) { throw LibraryError.invalidTitle(reason: problem) }
        let id = UUID()
        let name = id.uuidString.lowercased()
        let archived = try ClipArchive.store(file, into: store.clipsDirectory, name: name, damage: damage)
        let clip = LibraryClip(
            id: id, title: title ?? ClipTitle.fallback(forFile: file), fileName: "\(name).flac",
            frames: archived.frames, trimmedStart: archived.trimmedStart, trimmedLength: archived.trimmedLength,
            sampleRate: ClipArchive.sampleRate, contentHash: archived.contentHash, spokenText: spokenText)
        do {
            try store.insertClip(clip)
        } catch {
            FileSystem.remove(archived.path)
            throw error
        }
        return Stored(clip: clip, loudness: archived.loudness, cutOff: archived.cutOff)
    }

    /// Makes a clip by text to speech (libespeak-ng): a spoken stand-in for an affirmation not
    /// recorded yet, stored like any clip and marked as generated until `replace` (or
    /// `record --replace`) gives it the person's own voice.
    /// - Throws: `LibraryError.invalidSpokenText` for text that cannot be spoken;
    ///   `SpeechSynthesizer.Failure` for a voice eSpeak NG does not have, or no sound.
    package func say(_ text: String, title: String?, voice: String?) throws -> Stored {
        if let problem = SpokenText.problem(text) { throw LibraryError.invalidSpokenText(reason: problem) }
        if let title, let problem = ClipTitle.problem(title) { throw LibraryError.invalidTitle(reason: problem) }
        let speech = try SpeechSynthesizer().speak(text, voice: voice ?? SpeechSynthesizer.defaultVoice, longest: InputLimits.longestRecording)
        let folder = try TemporaryFiles.makePrivateFolder(prefix: "voicealarm-say")
        TemporaryFiles.registerFolder(folder)
        defer { FileSystem.removeTree(folder); TemporaryFiles.unregisterFolder(folder) }
        let wav = "\(folder)/spoken.wav"
        let writer = try TakeWriter(path: wav, sampleRate: speech.sampleRate, channels: 1)
        do { try writer.append(speech.samples) } catch { writer.close(); throw error }
        writer.close()
        return try store(wav, title: title ?? Self.title(speaking: text), spokenText: text)
    }

    /// A stand-in's title when none is given: the text, cut to fit a list line.
    static func title(speaking text: String) -> String {
        let words = text.trimmingCharacters(in: .whitespaces)
        return words.count > 60 ? String(words.prefix(59)) + "…" : words
    }

    /// Gives a clip new audio and rebuilds every alarm whose target uses it.
    package func replace(_ reference: String, with file: String) throws -> (LibraryClip, RebuildSummary) {
        let (stored, summary) = try replace(try resolve(reference), with: file)
        return (stored.clip, summary)
    }

    /// Gives `old` new audio; returns it with its loudness, and what the rebuild did. `damage`
    /// as for `store`.
    func replace(_ old: LibraryClip, with file: String, damage: AudioDecoder.Damage = .refuse) throws -> (Stored, RebuildSummary) {
        // A new file name, so the old copy stays whole until the record points at the new one.
        let name = "\(old.idString)-\(UUID().uuidString.prefix(8).lowercased())"
        let archived = try ClipArchive.store(file, into: store.clipsDirectory, name: name, damage: damage)
        var clip = old
        clip.fileName = "\(name).flac"
        clip.spokenText = nil  // new audio is the person's own voice
        clip.frames = archived.frames
        clip.trimmedStart = archived.trimmedStart
        clip.trimmedLength = archived.trimmedLength
        clip.contentHash = archived.contentHash
        do {
            try store.updateClipAudio(clip)
        } catch {
            FileSystem.remove(archived.path)
            throw error
        }
        if old.fileName != clip.fileName { FileSystem.remove(path(of: old)) }
        return (Stored(clip: clip, loudness: archived.loudness, cutOff: archived.cutOff), try sync.refresh(affectedBy: .clip(clip.id)))
    }

    /// Removes clips, and them from every playlist and the manifesto using them; those targets'
    /// alarms are rebuilt once each, together. Every reference is resolved before anything changes, and
    /// the clips leave in one transaction: one unknown id removes nothing.
    package func remove(_ references: [String], force: Bool = true) throws -> Removed {
        // Resolved inside the write transaction: what is removed is what is reported, even with
        // another process changing the library at the same time.
        var clips: [LibraryClip] = []
        let targets: [Target] = try store.transaction {
            for clip in try references.map(resolve) where !clips.contains(where: { $0.id == clip.id }) { clips.append(clip) }
            if !force { try refuseInUse(clips, named: references) }
            var touched: [Target] = []
            for clip in clips {
                for target in try store.deleteClip(clip.id) where !touched.contains(target) { touched.append(target) }
            }
            return touched
        }
        for clip in clips { FileSystem.remove(path(of: clip)) }
        let summary = try sync.refresh(affectedBy: targets.map(LibraryChange.target))  // every target's alarms at once
        return Removed(clips: clips, targets: targets, summary: summary)
    }

    /// Throws `clipInUse` when alarms play any of `clips`, naming those that would be left with
    /// no recording at all.
    private func refuseInUse(_ clips: [LibraryClip], named references: [String]) throws {
        let removing = Set(clips.map(\.id))
        var using: [UUID] = [], fallingBack: [UUID] = []
        for stored in try store.alarms() {
            let ids = try store.clips(of: stored.alarm.target)
            guard ids.contains(where: removing.contains) else { continue }
            using.append(stored.alarm.id)
            if ids.allSatisfy(removing.contains), stored.alarm.voice { fallingBack.append(stored.alarm.id) }
        }
        guard using.isEmpty else { throw LibraryError.clipInUse(references.joined(separator: " "), alarms: using, fallingBack: fallingBack) }
    }

    /// Gives a clip a new title. Its audio, its places in playlists and every ringtone stay as they are.
    package func rename(_ reference: String, to title: String) throws -> LibraryClip {
        if let problem = ClipTitle.problem(title) { throw LibraryError.invalidTitle(reason: problem) }
        return try store.transaction {
            var clip = try resolve(reference)
            try store.renameClip(clip.id, title: title)
            clip.title = title
            return clip
        }
    }

    /// Every clip, in the order they were added.
    package func all() throws -> [LibraryClip] { try store.clips() }

    /// The clip a person means by a full id or a unique prefix of at least 8 characters.
    package func resolve(_ reference: String) throws -> LibraryClip {
        let id = try ids.resolve(reference, in: .clips, kind: "clip") { .unknownClip($0) }
        guard let clip = try store.clip(id) else { throw LibraryError.unknownClip(reference) }
        return clip
    }

    /// Where a clip's stored copy is.
    package func path(of clip: LibraryClip) -> String { "\(store.clipsDirectory)/\(clip.fileName)" }
}
