import Foundation
import VoiceAlarmAudio
import VoiceAlarmCore

/// `voicealarm clip record`'s device set-up, done before a single frame is captured: the capture
/// device opened at the rate asked (or the nearest it has), a device whose nearest rate the
/// library would refuse turned away at once, and the take file made at the device's rate.
///
/// ```swift
/// let plan = try TakeImporter(service: service).prepare(replacing: nil, playlist: nil)
/// let setup = try RecordingSetup(device: "default", sampleRate: 48_000, channels: 1, takePath: plan.takePath)
/// let take = setup.recorder(shouldStop: { stop.isSet }).record(.init(maxSeconds: 20))
/// ```
package struct RecordingSetup {
    /// A device turned away before recording.
    package enum Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        /// The device cannot record at the rate asked, and the nearest it has is outside `InputLimits.sampleRates`.
        case rateOutOfRange(device: String, requested: Int, nearest: Int)

        package var description: String {
            switch self {
            case .rateOutOfRange(let device, let requested, let nearest):
                "'\(device)' cannot record at \(requested) Hz, and the nearest rate it has, \(nearest) Hz, is outside \(InputLimits.sampleRates.lowerBound)–\(InputLimits.sampleRates.upperBound) Hz"
            }
        }
    }

    /// The ALSA capture device's name.
    package let device: String
    /// The rate asked for, in Hz.
    package let requestedRate: Int
    /// The opened device.
    package let source: AlsaCapture
    /// The take file, written as the audio arrives.
    package let writer: TakeWriter

    /// The rate the take is recorded at: the one asked for, or the nearest the device has.
    package var sampleRate: Int { source.sampleRate }
    /// Whether the device records at another rate than the one asked for.
    package var rateDiffers: Bool { source.sampleRate != requestedRate }

    /// Opens `device` and makes the take file at `takePath`.
    /// - Throws: `Refusal` for a device whose nearest rate the library would refuse (the take file
    ///   is then not made); the capture device's or the file's errors when either cannot be opened.
    package init(device: String, sampleRate: Int, channels: Int, takePath: String) throws {
        let source = try AlsaCapture(device: device, sampleRate: sampleRate, channels: channels)
        if !InputLimits.sampleRates.contains(source.sampleRate) {
            // The library would refuse the take afterwards: say so before anything is spoken.
            throw Refusal.rateOutOfRange(device: device, requested: sampleRate, nearest: source.sampleRate)
        }
        self.device = device
        requestedRate = sampleRate
        self.source = source
        writer = try TakeWriter(path: takePath, sampleRate: source.sampleRate, channels: channels)
    }

    /// A recorder of this device into this take file.
    /// - Parameters:
    ///   - shouldStop: polled between chunks (Enter, SIGINT, SIGTERM).
    ///   - onLevel: called after each chunk with its level and the frames captured so far.
    package func recorder(shouldStop: @escaping () -> Bool, onLevel: @escaping (TakeRecorder.Level, Int) -> Void = { _, _ in }) -> TakeRecorder {
        TakeRecorder(source: source, writer: writer, shouldStop: shouldStop, onLevel: onLevel)
    }
}
