import Foundation
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmFiles
import VoiceAlarmScheduling

/// `voicealarm doctor`: whether anything will ring the alarms, and what to fix.
public struct Doctor {
    /// What was found, as values a command prints.
    public struct Report: Sendable {
        public var backend: SchedulerBackend
        public var dataDirectory: String
        public var soundsDirectory: String
        /// Where systemd units go, for the systemd backend.
        public var unitDirectory: String?
        /// The default tone's path, when it is there or could be made.
        public var defaultTone: String?
        public var alarms: Int
        /// Alarms that still have a ring ahead.
        public var live: Int
        /// Live alarms that will play the person's voice.
        public var withVoice: Int
        /// Live voice alarms that will play the default tone instead, and why.
        public var onDefaultTone: [(id: String, reason: String)]
        /// Whether the playback device opens.
        public var deviceOpens: Bool
        /// Sentences saying what stops alarms from ringing and what to do; empty when nothing does.
        public var problems: [String]
    }

    let service: AlarmService
    /// Opens the playback device (ALSA in the product).
    let openDevice: (String) throws -> Void

    public init(service: AlarmService,
                openDevice: @escaping (String) throws -> Void = { _ = try AlsaPlayback(device: $0, sampleRate: RenderSettings.defaultSampleRate) }) {
        self.service = service
        self.openDevice = openDevice
    }

    /// Looks at the scheduler, the default tone, every alarm's sound and the device.
    public func examine(device: String = "default") throws -> Report {
        var problems = service.sync.problems()
        var defaultTone: String?
        do { defaultTone = try DefaultTone.ensure(in: service.dataDirectory) } catch {
            problems.append("the default tone cannot be made: \(SystemError.text(of: error))")
        }
        let statuses = try service.alarms.statuses()
        let live = statuses.filter { $0.next != nil }
        var deviceOpens = true
        do { try openDevice(device) } catch {
            deviceOpens = false
            problems.append("the sound device '\(device)' does not open (\(error)); rings will fail unless --device names one that does")
        }
        return Report(
            backend: service.scheduler is EmbeddedScheduler ? .embedded : .systemd,
            dataDirectory: service.dataDirectory, soundsDirectory: service.sounds.path,
            unitDirectory: (service.scheduler as? SystemdTimerScheduler)?.unitDirectory,
            defaultTone: defaultTone, alarms: statuses.count, live: live.count,
            withVoice: live.filter { $0.sound.reason == nil }.count,
            onDefaultTone: live.filter { $0.sound.reason != nil && $0.alarm.voice }.map { ($0.alarm.idString, $0.sound.reason!) },
            deviceOpens: deviceOpens, problems: problems)
    }
}
