import Foundation
import VoiceAlarmAudio
import VoiceAlarmCore

/// Rings one alarm: its resolved sound (its voice file, else the default tone), looping through
/// an ALSA device until stopped or the maximum ring time, with the mixer turned up for the ring.
///
/// A ring that makes no sound is the one outcome that must never happen silently: every
/// fallback is said on stderr and written to the event log, and a total failure is logged loudly.
package final class AlarmRinger {
    package struct Options: Sendable {
        package var device = "default"
        /// The longest ring, in seconds of audio played.
        package var maxSeconds = 600.0
        /// The mixer floor while ringing (0...1).
        package var mixerFloor = 0.7
        /// Set when a scheduler started the ring: too late, and it is logged as missed instead.
        package var scheduled = false
        /// Seconds over which the ring rises from quiet to full level (`VolumeRamp`); 0 for none.
        package var rampSeconds = 0.0
        package init() {}
    }

    package enum Outcome: Equatable, Sendable {
        case rang(seconds: Double, sound: String, device: String)
        case missed(lateBy: TimeInterval)
    }

    let service: AlarmService?
    let dataDirectory: String
    let now: @Sendable () -> Date
    let timeZone: TimeZone
    let openDevice: (String, Int) throws -> PlaybackSink
    let openMixer: (String) -> PlaybackMixer?
    let shouldStop: () -> Bool
    let say: (String) -> Void
    let events: EventLog
    let registry: RingingRegistry
    /// Whether a line could not be written to the event log (said once per ring, not per line).
    private var eventLogFailed = false

    /// A ringer for the alarms of `service`.
    /// - Parameters:
    ///   - openDevice: opens a playback device by name at a rate (ALSA in the product).
    ///   - openMixer: the device's mixer, or nil when it has none.
    ///   - shouldStop: polled between chunks (SIGINT/SIGTERM, `voicealarm stop`).
    ///   - say: a line for the person (stderr).
    package convenience init(service: AlarmService,
                            openDevice: @escaping (String, Int) throws -> PlaybackSink = { try AlsaPlayback(device: $0, sampleRate: $1) },
                            openMixer: @escaping (String) -> PlaybackMixer? = { AlsaMixer(device: $0) },
                            shouldStop: @escaping () -> Bool, say: @escaping (String) -> Void) {
        self.init(service: service, dataDirectory: service.dataDirectory, now: service.now, timeZone: service.timeZone,
                  openDevice: openDevice, openMixer: openMixer, shouldStop: shouldStop, say: say)
    }

    /// A ringer for a library that could not be opened: it rings a `RingSubject` found without it.
    package convenience init(dataDirectory: String,
                            openDevice: @escaping (String, Int) throws -> PlaybackSink = { try AlsaPlayback(device: $0, sampleRate: $1) },
                            openMixer: @escaping (String) -> PlaybackMixer? = { AlsaMixer(device: $0) },
                            shouldStop: @escaping () -> Bool, say: @escaping (String) -> Void) {
        self.init(service: nil, dataDirectory: dataDirectory, now: Date.init, timeZone: .current,
                  openDevice: openDevice, openMixer: openMixer, shouldStop: shouldStop, say: say)
    }

    private init(service: AlarmService?, dataDirectory: String, now: @escaping @Sendable () -> Date, timeZone: TimeZone,
                 openDevice: @escaping (String, Int) throws -> PlaybackSink, openMixer: @escaping (String) -> PlaybackMixer?,
                 shouldStop: @escaping () -> Bool, say: @escaping (String) -> Void) {
        self.service = service
        self.dataDirectory = dataDirectory
        self.now = now
        self.timeZone = timeZone
        self.openDevice = openDevice
        self.openMixer = openMixer
        self.shouldStop = shouldStop
        self.say = say
        events = EventLog(dataDirectory: dataDirectory)
        registry = RingingRegistry(dataDirectory: dataDirectory)
    }

    /// Rings the alarm `reference` names in the ringer's library.
    /// - Throws: `LibraryError` for an unknown alarm; `AudioError` when no device at all could
    ///   play (after logging it loudly).
    package func ring(_ reference: String, options: Options) throws -> Outcome {
        guard let service else { preconditionFailure("a ringer without a library rings subjects") }
        let id = try service.alarms.id(reference)
        let status = try service.alarms.status(of: id)
        return try ring(RingSubject(status, soundsDirectory: service.sounds.path, dataDirectory: service.dataDirectory), options: options)
    }

    /// Rings `subject`: its voice file when it has one that decodes, else the default tone. A
    /// degraded subject (the library could not be used) is said loudly and logged first.
    /// - Throws: `AudioError` when no device at all could play (after logging it loudly).
    package func ring(_ subject: RingSubject, options: Options) throws -> Outcome {
        let tag = subject.tag
        if let degraded = subject.degraded {
            say("warning: \(tag): \(degraded); ringing anyway")
            log("\(tag): \(degraded); ringing anyway")
        }
        if options.scheduled {
            let now = now()
            if let schedule = subject.schedule, let due = schedule.previousFire(atOrBefore: now, in: timeZone),
               case .missed(let late) = MissedAlarmPolicy.decide(dueAt: due, now: now) {
                let message = "missed \(tag): due \(Int(late / 60)) min ago, more than \(Int(MissedAlarmPolicy.window / 60)) min late; not ringing"
                say(message)
                log(message, at: now)
                return .missed(lateBy: late)
            }
        }
        let id = subject.id
        let (samples, soundName) = try sound(for: subject)
        let rate = RenderSettings.defaultSampleRate
        var (sink, device) = try open(options.device, rate: rate, tag: tag)
        var mixer = raiseMixer(of: device, to: options.mixerFloor)
        try? registry.register(id)
        defer {
            mixer?.restore()
            // A stale entry left behind is harmless (`stop` skips and removes an entry whose process
            // is not a ring), but the person learns that `voicealarm stop` may find it.
            do { try registry.unregister(id) } catch { say("warning: \(tag): the ringing entry cannot be removed (\(error))") }
        }
        log("ringing \(tag) with \(soundName) on '\(device)'")
        let limit = Int(options.maxSeconds * Double(rate))
        let ramp = VolumeRamp(seconds: VolumeRamp.clamped(options.rampSeconds), sampleRate: rate)
        var played = 0
        var position = 0
        while played < limit, !shouldStop() {
            let count = min(rate / 20, samples.count - position, limit - played)
            let chunk = played < Int(ramp.seconds * Double(rate))
                ? samples[position..<position + count].enumerated().map { [played] in $1 * ramp.gain(atSample: played + $0) }[...]
                : samples[position..<position + count]
            do {
                try sink.play(chunk)
            } catch {
                // The device went away mid-ring (a sound server that died or restarts, a card
                // unplugged): 'default' at once, then the asked device and 'default' again for a few
                // seconds (a sound server comes back within one) before the ring is given up, loudly.
                say("warning: \(tag): '\(device)' failed mid-ring (\(error)); trying 'default'")
                log("\(tag): '\(device)' failed mid-ring (\(error)); trying 'default'")
                mixer?.restore()
                mixer = nil
                var reopened: (PlaybackSink, String)?
                var lastError: any Error = error
                for round in 0..<6 where reopened == nil && !shouldStop() {
                    if round > 0 { usleep(1_000_000) }
                    for name in Array(Set(["default", options.device])).sorted(by: { a, _ in a == "default" }) where reopened == nil {
                        do {
                            let candidate = try openDevice(name, rate)
                            try candidate.play(chunk)
                            reopened = (candidate, name)
                        } catch { lastError = error }
                    }
                }
                guard let reopened else { _ = try noSound(tag, lastError); return .rang(seconds: 0, sound: soundName, device: device) }
                (sink, device) = reopened
                say("\(tag): ringing on '\(device)'")
                log("\(tag): ringing on '\(device)' again")
                mixer = raiseMixer(of: device, to: options.mixerFloor)
            }
            played += count
            position = (position + count) % samples.count
        }
        if !shouldStop() { sink.drain() }
        let seconds = Double(played) / Double(rate)
        log(String(format: "stopped \(tag) after %.1f s", seconds))
        return .rang(seconds: seconds, sound: soundName, device: device)
    }

    /// The samples to loop: the voice file when there is one and it decodes, else the default
    /// tone — the data dir's copy, or, when that cannot be made or read (a read-only or full
    /// disk), the same chime made in memory.
    private func sound(for subject: RingSubject) throws -> ([Float], String) {
        let rate = RenderSettings.defaultSampleRate
        let tag = subject.tag
        if let path = subject.voiceFile {
            let file = URL(fileURLWithPath: path).lastPathComponent
            do {
                let samples = try AudioDecoder(path: path, sampleRate: rate).readAll()
                if !samples.isEmpty { return (samples, file) }
                say("warning: \(tag): voice file \(file) holds no audio; ringing the default tone")
            } catch {
                say("warning: \(tag): voice file failed at ring time (\(error)); ringing the default tone")
                log("\(tag): voice file \(file) failed at ring time (\(error)); default tone")
            }
        }
        do {
            let path = try DefaultTone.ensure(in: subject.dataDirectory)
            return (try AudioDecoder(path: path, sampleRate: rate).readAll(), DefaultTone.fileName)
        } catch {
            say("warning: \(tag): the default tone's file cannot be used (\(error)); ringing it from memory")
            log("\(tag): the default tone's file cannot be used (\(error)); rung from memory")
        }
        do {
            return (try DefaultTone.samples(sampleRate: rate), DefaultTone.fileName)
        } catch {
            let message = "ALARM MADE NO SOUND: \(tag): neither the voice file nor the default tone could be prepared: \(error)"
            say("error: " + message)
            log(message)
            throw error
        }
    }

    /// The device's mixer raised to `floor` for the ring (said), or nil when it has none.
    private func raiseMixer(of device: String, to floor: Double) -> PlaybackMixer? {
        guard let mixer = openMixer(device) else {
            say("'\(device)' has no mixer to unmute; ringing anyway.")
            return nil
        }
        let changes = mixer.raise(toAtLeast: floor)
        say(changes.isEmpty ? "The mixer of '\(device)' is already up." : "For the ring: " + changes.joined(separator: ", ") + " (restored afterwards).")
        return mixer
    }

    /// The asked device, else `default`; a total failure is logged loudly before it is thrown.
    private func open(_ device: String, rate: Int, tag: String) throws -> (PlaybackSink, String) {
        do {
            return (try openDevice(device, rate), device)
        } catch {
            guard device != "default" else { return try noSound(tag, error) }
            say("warning: \(error); trying 'default'")
            log("\(tag): \(error); trying 'default'")
            do { return (try openDevice("default", rate), "default") } catch { return try noSound(tag, error) }
        }
    }

    /// Writes `message` to the event log. A log that cannot be written never stops or delays the
    /// ring: the first failure is said on stderr (which a scheduler's journal keeps, so the event
    /// is not lost), later ones are not repeated.
    private func log(_ message: String, at date: Date? = nil) {
        do { try events.record(message, at: date ?? Date()) } catch {
            guard !eventLogFailed else { return }
            eventLogFailed = true
            say("warning: the event log cannot be written (\(error)); this ring is not recorded there")
        }
    }

    private func noSound(_ tag: String, _ error: Error) throws -> (PlaybackSink, String) {
        let message = "ALARM MADE NO SOUND: \(tag): no sound device could play it: \(error)"
        say("error: " + message)
        log(message)
        throw error
    }
}
