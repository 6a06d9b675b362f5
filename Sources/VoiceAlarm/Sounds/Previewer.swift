import Foundation
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmFiles

/// Hearing recordings before waking to them: a playlist, the manifesto, one clip or an alarm's
/// target, played whole and untrimmed in order, or as the capped ringtone it would make.
///
/// A preview is not a ring: a device that cannot open is an error for the person at the
/// terminal, never a fallback to another device and never an "ALARM MADE NO SOUND" event.
package final class Previewer {
    /// What a reference named.
    package enum Subject: Sendable, Equatable, CustomStringConvertible {
        case target(Target)
        case clip(LibraryClip)
        case alarm(id: UUID, target: Target, voice: Bool)

        package var description: String {
            switch self {
            case .target(let target): target.description
            case .clip(let clip): "clip \(clip.idString) (\(clip.title))"
            case .alarm(let id, let target, _): "alarm \(id.uuidString.lowercased()) (\(target))"
            }
        }
    }

    /// What was played.
    package struct Played: Sendable {
        package var subject: Subject
        /// The clips heard, in order (for a ringtone: the clips of the target, of which the cap may cut some).
        package var clips: [LibraryClip]
        /// True when the capped ringtone was played rather than the whole recording.
        package var ringtone: Bool
        package var device: String
        /// Seconds of audio played (less when stopped).
        package var seconds: Double
        package var stopped: Bool
    }

    let service: AlarmService
    let openDevice: (String, Int) throws -> PlaybackSink
    let shouldStop: () -> Bool

    package init(
        service: AlarmService,
        openDevice: @escaping (String, Int) throws -> PlaybackSink = { try AlsaPlayback(device: $0, sampleRate: $1) },
        shouldStop: @escaping () -> Bool
    ) {
        self.service = service
        self.openDevice = openDevice
        self.shouldStop = shouldStop
    }

    /// What `reference` names, tried in this order: `manifesto`, a playlist's name, a clip id,
    /// an alarm id (ids as everywhere: the full id or a unique prefix of at least 8 characters).
    package func subject(_ reference: String) throws -> Subject {
        if reference.lowercased() == Target.manifestoName { return .target(.manifesto) }
        do { return .target(try service.playlists.existing(.playlist(reference))) } catch LibraryError.unknownPlaylist {}
        var idError: LibraryError?
        do { return .clip(try service.clips.resolve(reference)) } catch let error as LibraryError {
            if case .ambiguousID = error { idError = error }
        }
        do {
            let status = try service.alarms.status(of: try service.alarms.id(reference))
            return .alarm(id: status.alarm.id, target: status.alarm.target, voice: status.alarm.voice)
        } catch let error as LibraryError {
            if case .ambiguousID = error { idError = error }
        }
        throw idError ?? LibraryError.unknownPreview(reference)
    }

    /// The clips a subject plays, in order.
    package func clips(of subject: Subject) throws -> [LibraryClip] {
        switch subject {
        case .target(let target), .alarm(_, let target, _): try service.playlists.clips(of: target)
        case .clip(let clip): [clip]
        }
    }

    /// Plays what `reference` names on `device`: every clip whole, in order, or with `ringtone`
    /// the capped ringtone the library's settings make from them (rendered to a private
    /// temporary file that is removed afterwards).
    /// - Throws: `LibraryError.nothingToPlay` when the target has no recording; `AudioError`
    ///   when the device cannot open or a clip cannot be read.
    package func play(_ reference: String, ringtone: Bool, device: String) throws -> Played {
        let subject = try subject(reference)
        let clips = try clips(of: subject)
        guard !clips.isEmpty else { throw LibraryError.nothingToPlay(subject.description) }
        let rate = RenderSettings.defaultSampleRate
        let sink = try openDevice(device, rate)  // a device that cannot play fails before any render
        var played = 0
        func play(_ files: [String]) throws {
            for file in files where !shouldStop() {
                let decoder = try AudioDecoder(path: file, sampleRate: rate)
                while !shouldStop(), let chunk = try decoder.read(upTo: rate / 10) {
                    try sink.play(chunk[...])
                    played += chunk.count
                }
            }
        }
        if ringtone {
            try LibraryRenderer().renderPrivately(
                clips, settings: try service.settings.current(),
                clipsDirectory: service.clips.store.clipsDirectory
            ) { try play([$0.output]) }
        } else {
            try play(clips.map(service.clips.path(of:)))
        }
        let stopped = shouldStop()
        if !stopped { sink.drain() }
        return Played(
            subject: subject, clips: clips, ringtone: ringtone, device: device,
            seconds: Double(played) / Double(rate), stopped: stopped)
    }
}
