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
    let say: (RingNotice) -> Void
    /// Waits between tries to reopen a device that failed mid-ring (a second each).
    let pause: (TimeInterval) -> Void
    let events: EventLog
    /// The typed events whoever follows the alarms reads (Home Assistant's bridge).
    let journal: AlarmEventJournal
    let registry: RingingRegistry
    /// Whether a line could not be written to the event log (said once per ring, not per line).
    private var eventLogFailed = false

    /// A ringer for the alarms of `service`.
    /// - Parameters:
    ///   - openDevice: opens a playback device by name at a rate (ALSA in the product).
    ///   - openMixer: the device's mixer, or nil when it has none.
    ///   - shouldStop: polled between chunks (SIGINT/SIGTERM, a `stop` from a terminal or the page).
    ///   - pause: waits between tries to reopen a device that failed mid-ring.
    ///   - say: what the person is told (the surface words it).
    package convenience init(
        service: AlarmService,
        openDevice: @escaping (String, Int) throws -> PlaybackSink = { try AlsaPlayback(device: $0, sampleRate: $1) },
        openMixer: @escaping (String) -> PlaybackMixer? = { AlsaMixer(device: $0) },
        shouldStop: @escaping () -> Bool, pause: @escaping (TimeInterval) -> Void = { Thread.sleep(forTimeInterval: $0) },
        say: @escaping (RingNotice) -> Void
    ) {
        self.init(
            service: service, dataDirectory: service.dataDirectory, now: service.now, timeZone: service.timeZone,
            openDevice: openDevice, openMixer: openMixer, shouldStop: shouldStop, pause: pause, say: say)
    }

    /// A ringer for a library that could not be opened: it rings a `RingSubject` found without it.
    package convenience init(
        dataDirectory: String,
        openDevice: @escaping (String, Int) throws -> PlaybackSink = { try AlsaPlayback(device: $0, sampleRate: $1) },
        openMixer: @escaping (String) -> PlaybackMixer? = { AlsaMixer(device: $0) },
        now: @escaping @Sendable () -> Date = Date.init,
        shouldStop: @escaping () -> Bool, pause: @escaping (TimeInterval) -> Void = { Thread.sleep(forTimeInterval: $0) },
        say: @escaping (RingNotice) -> Void
    ) {
        self.init(
            service: nil, dataDirectory: dataDirectory, now: now, timeZone: .current,
            openDevice: openDevice, openMixer: openMixer, shouldStop: shouldStop, pause: pause, say: say)
    }

    private init(
        service: AlarmService?, dataDirectory: String, now: @escaping @Sendable () -> Date, timeZone: TimeZone,
        openDevice: @escaping (String, Int) throws -> PlaybackSink, openMixer: @escaping (String) -> PlaybackMixer?,
        shouldStop: @escaping () -> Bool, pause: @escaping (TimeInterval) -> Void, say: @escaping (RingNotice) -> Void
    ) {
        self.service = service
        self.dataDirectory = dataDirectory
        self.now = now
        self.timeZone = timeZone
        self.openDevice = openDevice
        self.openMixer = openMixer
        self.shouldStop = shouldStop
        self.pause = pause
        self.say = say
        events = EventLog(dataDirectory: dataDirectory)
        journal = AlarmEventJournal(dataDirectory: dataDirectory)
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
            say(.degraded(tag: tag, reason: degraded))
            log("\(tag): \(degraded); ringing anyway")
        }
        if options.scheduled, let late = lateness(of: subject) { return .missed(lateBy: late) }
        let (samples, soundName) = try sound(for: subject)
        var playback = try Playback(open(options.device, rate: RenderSettings.defaultSampleRate, tag: tag))
        playback.mixer = raiseMixer(of: playback.device, to: options.mixerFloor)
        try? registry.register(subject.id)
        defer {
            playback.mixer?.restore()
            // A stale entry left behind is harmless (`stop` skips and removes an entry whose process
            // is not a ring), but the person learns that a later `stop` may find it.
            do { try registry.unregister(subject.id) } catch { say(.entryNotRemoved(tag: tag, error: "\(error)")) }
        }
        log("ringing \(tag) with \(soundName) on '\(playback.device)'")
        var rang = AlarmEvent(.rang, alarm: subject.alarm, at: now())
        rang.sound = soundName == DefaultTone.fileName ? .standard : .voice
        rang.reason = rang.sound == .standard ? subject.defaultToneReason ?? subject.degraded ?? "the voice file could not be played" : nil
        rang.device = playback.device
        if case .ringing(let request) = TestRingDesk(dataDirectory: dataDirectory).phase(now: now()), request.alarm == subject.id { rang.test = true }
        note(rang)
        let seconds = try loop(samples, on: &playback, options: options, tag: tag)
        log(String(format: "stopped \(tag) after %.1f s", seconds))
        var stopped = AlarmEvent(.stopped, alarm: subject.alarm, at: now())
        stopped.seconds = seconds
        stopped.test = rang.test
        note(stopped)
        return .rang(seconds: seconds, sound: soundName, device: playback.device)
    }

    /// The device a ring plays on, and its mixer while it is raised.
    private struct Playback {
        var sink: PlaybackSink
        var device: String
        var mixer: PlaybackMixer?
        init(_ opened: (PlaybackSink, String)) { (sink, device) = opened }
    }

    /// How late a scheduled ring came, when it is too late to ring (said and logged as missed).
    private func lateness(of subject: RingSubject) -> TimeInterval? {
        let now = now()
        guard let schedule = subject.schedule, let due = schedule.previousFire(atOrBefore: now, in: timeZone),
            case .missed(let late) = MissedAlarmPolicy.decide(dueAt: due, now: now)
        else { return nil }
        let window = Int(MissedAlarmPolicy.window / 60)
        say(.missed(tag: subject.tag, lateMinutes: Int(late / 60), windowMinutes: window))
        log("missed \(subject.tag): due \(Int(late / 60)) min ago, more than \(window) min late; not ringing", at: now)
        var missed = AlarmEvent(.missed, alarm: subject.alarm, at: now)
        missed.due = due
        note(missed)
        return late
    }

    /// Plays `samples` in a loop, rising over the ramp, until stopped or the longest ring; a
    /// device that fails mid-ring is replaced (`recover`). The seconds played.
    /// - Throws: the last device's error when none could go on (said and logged loudly first).
    private func loop(_ samples: [Float], on playback: inout Playback, options: Options, tag: String) throws -> Double {
        let rate = RenderSettings.defaultSampleRate
        let limit = Int(options.maxSeconds * Double(rate))
        let ramp = VolumeRamp(seconds: VolumeRamp.clamped(options.rampSeconds), sampleRate: rate)
        var played = 0
        var position = 0
        while played < limit, !shouldStop() {
            let count = min(rate / 20, samples.count - position, limit - played)
            let chunk =
                played < Int(ramp.seconds * Double(rate))
                ? samples[position..<position + count].enumerated().map { [played] in $1 * ramp.gain(atSample: played + $0) }[...]
                : samples[position..<position + count]
            do {
                try playback.sink.play(chunk)
            } catch {
                try recover(&playback, after: error, replaying: chunk, options: options, tag: tag)
            }
            played += count
            position = (position + count) % samples.count
        }
        if !shouldStop() { playback.sink.drain() }
        return Double(played) / Double(rate)
    }

    /// The device went away mid-ring (a sound server that died or restarts, a card unplugged):
    /// `default` at once, then the asked device and `default` again each second for a few
    /// seconds (a sound server comes back within one) before the ring is given up, loudly.
    /// - Throws: the last error when no device could go on (said and logged loudly first).
    private func recover(
        _ playback: inout Playback, after error: any Error, replaying chunk: ArraySlice<Float>,
        options: Options, tag: String
    ) throws {
        say(.deviceFailedMidRing(tag: tag, device: playback.device, error: "\(error)"))
        log("\(tag): '\(playback.device)' failed mid-ring (\(error)); trying 'default'")
        playback.mixer?.restore()
        playback.mixer = nil
        let rate = RenderSettings.defaultSampleRate
        let names = Array(Set(["default", options.device])).sorted { a, _ in a == "default" }
        var lastError: any Error = error
        for round in 0..<6 where !shouldStop() {
            if round > 0 { pause(1) }
            for name in names {
                do {
                    let candidate = try openDevice(name, rate)
                    try candidate.play(chunk)
                    playback.sink = candidate
                    playback.device = name
                    say(.ringingOn(tag: tag, device: name))
                    log("\(tag): ringing on '\(name)' again")
                    playback.mixer = raiseMixer(of: name, to: options.mixerFloor)
                    return
                } catch { lastError = error }
            }
        }
        _ = try noSound(tag, lastError)
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
                say(.voiceFileEmpty(tag: tag, file: file))
            } catch {
                say(.voiceFileFailed(tag: tag, error: "\(error)"))
                log("\(tag): voice file \(file) failed at ring time (\(error)); default tone")
            }
        }
        do {
            let path = try DefaultTone.ensure(in: subject.dataDirectory)
            return (try AudioDecoder(path: path, sampleRate: rate).readAll(), DefaultTone.fileName)
        } catch {
            say(.defaultToneFromMemory(tag: tag, error: "\(error)"))
            log("\(tag): the default tone's file cannot be used (\(error)); rung from memory")
        }
        do {
            return (try DefaultTone.samples(sampleRate: rate), DefaultTone.fileName)
        } catch {
            let reason = "neither the voice file nor the default tone could be prepared: \(error)"
            say(.madeNoSound(tag: tag, reason: reason))
            log("ALARM MADE NO SOUND: \(tag): \(reason)")
            throw error
        }
    }

    /// The device's mixer raised to `floor` for the ring (said), or nil when it has none.
    private func raiseMixer(of device: String, to floor: Double) -> PlaybackMixer? {
        guard let mixer = openMixer(device) else {
            say(.noMixer(device: device))
            return nil
        }
        let changes = mixer.raise(toAtLeast: floor)
        say(changes.isEmpty ? .mixerAlreadyUp(device: device) : .mixerRaised(changes: changes))
        return mixer
    }

    /// The asked device, else `default`; a total failure is logged loudly before it is thrown.
    private func open(_ device: String, rate: Int, tag: String) throws -> (PlaybackSink, String) {
        do {
            return (try openDevice(device, rate), device)
        } catch {
            guard device != "default" else { return try noSound(tag, error) }
            say(.deviceRefused(error: "\(error)"))
            log("\(tag): \(error); trying 'default'")
            do { return (try openDevice("default", rate), "default") } catch { return try noSound(tag, error) }
        }
    }

    /// Writes `message` to the event log. A log that cannot be written never stops or delays the
    /// ring: the first failure is said on stderr (which a scheduler's journal keeps, so the event
    /// is not lost), later ones are not repeated.
    private func log(_ message: String, at date: Date? = nil) {
        do { try events.record(message, at: date ?? now()) } catch {
            guard !eventLogFailed else { return }
            eventLogFailed = true
            say(.eventLogUnwritable(error: "\(error)"))
        }
    }

    /// Appends `event` to the journal; like a log line, a failure never stops or delays the ring.
    private func note(_ event: AlarmEvent) {
        do { try journal.record(event) } catch {
            guard !eventLogFailed else { return }
            eventLogFailed = true
            say(.eventLogUnwritable(error: "\(error)"))
        }
    }

    private func noSound(_ tag: String, _ error: any Error) throws -> (PlaybackSink, String) {
        let reason = "no sound device could play it: \(error)"
        say(.madeNoSound(tag: tag, reason: reason))
        log("ALARM MADE NO SOUND: \(tag): \(reason)")
        throw error
    }
}
