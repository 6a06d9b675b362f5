import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles

/// VoiceAlarm's own default alarm tone: a soft two-note chime, made here by libavfilter's `sine`
/// source (not shipped as a file), so that a data dir always has something to ring with and
/// nothing ever points into the source tree.
package enum DefaultTone {
    /// The tone's file name in a data dir.
    package static let fileName = "default-tone.caf"

    /// The chime: two notes, a rest, three times (9 s), 16-bit PCM in caf.
    static let notes = [(frequency: 880.0, level: 0.5), (frequency: 1318.5, level: 0.4)]

    /// The chime itself, made in memory: what a ring plays when the data dir's copy cannot be
    /// written or read (a read-only or full disk). Needs nothing but libavfilter.
    /// - Throws: `AudioError` when libavfilter fails.
    package static func samples(sampleRate rate: Int) throws -> [Float] {
        var samples: [Float] = []
        for _ in 0..<3 {
            for note in notes {
                samples += try FilterChain.generate(
                    "sine=frequency=\(note.frequency):sample_rate=\(rate):duration=0.9,volume=\(note.level * 8),afade=t=in:d=0.01,afade=t=out:st=0.05:d=0.85",
                    sampleRate: rate, path: fileName)
            }
            samples += [Float](repeating: 0, count: Int(1.2 * Double(rate)))
        }
        return samples
    }

    /// The tone as a browser plays it, for the page's Listen: WAV (only Safari plays caf).
    package static let browserFileName = "default-tone.wav"

    /// The tone's path in `dataDirectory`, written (or rewritten) when it is missing or fails its check.
    /// - Throws: `AudioError` when it cannot be made or written.
    package static func ensure(in dataDirectory: String) throws -> String {
        try ensure(fileName, .caf, in: dataDirectory)
    }

    /// The same tone as WAV beside it (`browserFileName`), made the same way, for a browser.
    /// - Throws: `AudioError` when it cannot be made or written.
    package static func ensureForBrowsers(in dataDirectory: String) throws -> String {
        try ensure(browserFileName, .wav, in: dataDirectory)
    }

    private static func ensure(_ fileName: String, _ format: RingtoneFormat, in dataDirectory: String) throws -> String {
        let path = "\(dataDirectory)/\(fileName)"
        if FileManager.default.fileExists(atPath: path),
            (try? SoundInspector.inspect(path).problems.isEmpty) == true
        {
            return path
        }
        let samples = try self.samples(sampleRate: RenderSettings.defaultSampleRate)
        try AudioError.writing(path) {
            try FileSystem.atomicWrite(to: path, permissions: 0o600) { temporary in
                try RingtoneEncoder(settings: RenderSettings(format: format)).write(samples, to: temporary)
            }
        }
        return path
    }
}
