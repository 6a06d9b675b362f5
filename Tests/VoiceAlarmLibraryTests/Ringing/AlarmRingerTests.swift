import Foundation
import TestSupport
import Testing
import VoiceAlarm
import VoiceAlarmAudio
import VoiceAlarmCore

/// Records what was played, and when relative to the mixer.
final class Recorder: PlaybackSink {
    var samples: [Float] = []
    var events: [String]
    init(events: [String] = []) { self.events = events }
    func play(_ chunk: ArraySlice<Float>) throws {
        if samples.isEmpty { events.append("play") }
        samples.append(contentsOf: chunk)
    }
    func drain() { events.append("drain") }
}

final class FakeMixer: PlaybackMixer {
    let recorder: Recorder
    var floor: Double?
    init(_ recorder: Recorder) { self.recorder = recorder }
    func raise(toAtLeast floor: Double) -> [String] {
        self.floor = floor
        recorder.events.append("raise")
        return ["unmuted Master", "raised Master to 70 %"]
    }
    func restore() { recorder.events.append("restore") }
}

@Suite("Ringing, with a recording device and mixer standing in for ALSA")
struct AlarmRingerTests {
    private func setUp() throws -> (LibraryFixture, UUID) {
        let f = try LibraryFixture()
        let clip = try f.service.clips.add(f.sample("calm.wav"), title: "Calm")
        _ = try f.service.playlists.setManifesto(clip.idString)
        return (f, try f.service.alarms.add(on: .manifesto, at: AlarmTime(hour: 21, minute: 55), days: .everyDay).status.alarm.id)
    }

    @Test("The mixer is raised before the first sample and restored after; the ringtone loops to the limit")
    func mixerAndLoop() throws {
        let (f, id) = try setUp()
        let recorder = Recorder()
        var said: [RingNotice] = []
        let ringer = AlarmRinger(
            service: f.service, openDevice: { _, _ in recorder }, openMixer: { _ in FakeMixer(recorder) },
            shouldStop: { false }, say: { said.append($0) })
        var options = AlarmRinger.Options()
        options.maxSeconds = 30
        let outcome = try ringer.ring(id.uuidString, options: options)
        #expect(outcome == .rang(seconds: 30, sound: "\(id.uuidString.lowercased()).m4a", device: "default"))
        #expect(recorder.events == ["raise", "play", "drain", "restore"])
        #expect(said.contains { if case .mixerRaised(let changes) = $0 { changes.contains { $0.contains("unmuted Master") } } else { false } })
        let ringtone = try AudioDecoder(path: try f.soundPath(id)!, sampleRate: 44_100).readAll()
        #expect(recorder.samples.count == 30 * 44_100)
        #expect(Array(recorder.samples[0..<ringtone.count]) == ringtone)
        #expect(Array(recorder.samples[ringtone.count..<2 * ringtone.count]) == ringtone, "the second pass repeats the first")
        #expect(try String(contentsOfFile: f.dir.file("events.log"), encoding: .utf8).contains("ringing alarm \(id.uuidString.lowercased())"))
    }

    @Test("A failing device falls back to 'default'; no device at all is logged loudly")
    func deviceFallback() throws {
        let (f, id) = try setUp()
        let recorder = Recorder()
        var opened: [String] = []
        let ringer = AlarmRinger(
            service: f.service,
            openDevice: { name, _ in
                opened.append(name)
                if name == "default" { return recorder }
                throw AudioError.device(name: name, function: "snd_pcm_open", code: -2, message: "No such file or directory")
            }, openMixer: { _ in nil }, shouldStop: { false }, say: { _ in })
        var options = AlarmRinger.Options()
        options.device = "usb-speaker"
        options.maxSeconds = 1
        #expect(try ringer.ring(id.uuidString, options: options) == .rang(seconds: 1, sound: "\(id.uuidString.lowercased()).m4a", device: "default"))
        #expect(opened == ["usb-speaker", "default"])

        let silent = AlarmRinger(
            service: f.service,
            openDevice: { name, _ in
                throw AudioError.device(name: name, function: "snd_pcm_open", code: -2, message: "No such file or directory")
            }, openMixer: { _ in nil }, shouldStop: { false }, say: { _ in })
        #expect(throws: AudioError.self) { try silent.ring(id.uuidString, options: options) }
        #expect(try String(contentsOfFile: f.dir.file("events.log"), encoding: .utf8).contains("ALARM MADE NO SOUND"))
    }

    @Test(
        "A device that fails mid-ring is tried again each second, 'default' first, and the ring goes on where it comes back",
        arguments: [(2, true), (9, false)])
    func recoveryMidRing(_ downRounds: Int, _ comesBack: Bool) throws {
        let (f, id) = try setUp()
        let recorder = Recorder()
        var opens = 0, pauses: [TimeInterval] = [], said: [RingNotice] = []
        /// Plays half a second, then the sound server goes away for `downRounds` rounds of tries.
        final class Dying: PlaybackSink {
            var played = 0
            func play(_ chunk: ArraySlice<Float>) throws {
                played += chunk.count
                if played > 22_050 { throw AudioError.device(name: "default", function: "snd_pcm_writei", code: -19, message: "No such device") }
            }
            func drain() {}
        }
        let ringer = AlarmRinger(
            service: f.service,
            openDevice: { name, _ in
                opens += 1
                if opens == 1 { return Dying() }
                guard pauses.count >= downRounds else {
                    throw AudioError.device(name: name, function: "snd_pcm_open", code: -111, message: "Connection refused")
                }
                return recorder
            }, openMixer: { _ in nil }, shouldStop: { false }, pause: { pauses.append($0) }, say: { said.append($0) })
        var options = AlarmRinger.Options()
        options.maxSeconds = 2
        if comesBack {
            #expect(try ringer.ring(id.uuidString, options: options) == .rang(seconds: 2, sound: "\(id.uuidString.lowercased()).m4a", device: "default"))
            #expect(pauses == [1, 1], "a second between rounds, and no wait once it is back")
            #expect(said.contains { if case .ringingOn(_, "default") = $0 { true } else { false } })
            #expect(recorder.samples.count == 2 * 44_100 - 22_050, "the chunk that failed is played again, then the rest")
        } else {
            #expect(throws: AudioError.self) { try ringer.ring(id.uuidString, options: options) }
            #expect(pauses == [1, 1, 1, 1, 1], "six rounds in all, then the ring is given up")
            #expect(said.contains { $0.madeNoSound })
            #expect(try String(contentsOfFile: f.dir.file("events.log"), encoding: .utf8).contains("ALARM MADE NO SOUND"))
        }
    }

    @Test(
        "A voice file that fails at ring time rings the default tone, which is regenerated if missing",
        arguments: ["missing", "corrupt", "voice off"])
    func defaultToneFallback(_ how: String) throws {
        let (f, id) = try setUp()
        let file = try #require(try f.soundPath(id))
        switch how {
        case "missing": try FileManager.default.removeItem(atPath: file)
        case "corrupt": try Data("not audio".utf8).write(to: URL(fileURLWithPath: file))
        default: _ = try f.service.alarms.setVoice(false, for: id.uuidString)
        }
        try? FileManager.default.removeItem(atPath: f.dir.file(DefaultTone.fileName))
        let recorder = Recorder()
        let ringer = AlarmRinger(service: f.service, openDevice: { _, _ in recorder }, openMixer: { _ in nil }, shouldStop: { false }, say: { _ in })
        var options = AlarmRinger.Options()
        options.maxSeconds = 5
        let outcome = try ringer.ring(id.uuidString, options: options)
        #expect(outcome == .rang(seconds: 5, sound: DefaultTone.fileName, device: "default"))
        let tone = try AudioDecoder(path: f.dir.file(DefaultTone.fileName), sampleRate: 44_100).readAll()
        #expect(Array(recorder.samples.prefix(5 * 44_100)) == Array(tone.prefix(5 * 44_100)))
        #expect(try SoundInspector.inspect(f.dir.file(DefaultTone.fileName)).problems.isEmpty)
    }

    @Test(
        "Started by a scheduler: under 10 minutes late it rings, later it is logged as missed",
        arguments: [(9.0, true), (11.0, false)])
    func scheduledLateness(_ minutesLate: Double, _ rings: Bool) throws {
        let (f, id) = try setUp()
        // The alarm is at 21:55 UTC; "now" in the fixture is 22:00. Move it to lateness.
        let now = Date(timeIntervalSince1970: LibraryFixture.now.timeIntervalSince1970 - 300 + minutesLate * 60)
        let late = AlarmService(
            store: f.service.store, sounds: f.service.sounds, scheduler: f.service.scheduler,
            now: { now }, timeZone: TimeZone(identifier: "UTC")!)
        let recorder = Recorder()
        let ringer = AlarmRinger(service: late, openDevice: { _, _ in recorder }, openMixer: { _ in nil }, shouldStop: { false }, say: { _ in })
        var options = AlarmRinger.Options()
        options.scheduled = true
        options.maxSeconds = 1
        let outcome = try ringer.ring(id.uuidString, options: options)
        if rings {
            #expect(outcome == .rang(seconds: 1, sound: "\(id.uuidString.lowercased()).m4a", device: "default"))
        } else {
            #expect(outcome == .missed(lateBy: minutesLate * 60))
            #expect(recorder.samples.isEmpty)
            #expect(try String(contentsOfFile: f.dir.file("events.log"), encoding: .utf8).contains("missed alarm"))
        }
    }

    @Test("Stopping ends the ring at once, and the mixer is still restored")
    func stop() throws {
        let (f, id) = try setUp()
        let recorder = Recorder()
        let ringer = AlarmRinger(
            service: f.service, openDevice: { _, _ in recorder }, openMixer: { _ in FakeMixer(recorder) },
            shouldStop: { recorder.samples.count >= 44_100 }, say: { _ in })
        guard case .rang(let seconds, _, _) = try ringer.ring(id.uuidString, options: .init()) else { Issue.record("did not ring"); return }
        #expect(seconds < 1.1)
        #expect(recorder.events.last == "restore")
    }
}
