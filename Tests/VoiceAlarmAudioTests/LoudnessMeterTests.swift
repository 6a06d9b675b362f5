import Foundation
import TestSupport
import Testing
import VoiceAlarmAudio

/// libavfilter's `ebur128` integrated loudness of `path`, to full precision, by the ffmpeg CLI:
/// the reading VoiceAlarm's meter replaced.
private func libavfilterIntegrated(_ path: String) async throws -> Double {
    let result = try await ProcessRunner.run(
        "ffmpeg",
        [
            "-v", "error", "-i", path, "-af",
            "ebur128=metadata=1,ametadata=print:key=lavfi.r128.I:file=-", "-f", "null", "-",
        ])
    guard result.status == 0, let last = result.stdout.split(separator: "\n").last(where: { $0.hasPrefix("lavfi.r128.I=") }),
        let value = Double(last.dropFirst("lavfi.r128.I=".count))
    else {
        throw TestSupportError("ffmpeg's ebur128 gave no integrated reading for \(path): \(result.stderr)")
    }
    return value
}

/// A mono 44.1 kHz float wav of 1 kHz sine stretches: (amplitude in dBFS, seconds) each, by the ffmpeg CLI.
private func sineSequence(_ parts: [(dB: Double, seconds: Double)], in dir: TemporaryDirectory, name: String) async throws -> String {
    let path = dir.file(name)
    var inputs: [String] = []
    for part in parts {
        inputs += ["-f", "lavfi", "-i", String(format: "aevalsrc=%.9f*sin(2*PI*1000*t):s=44100:d=%g", pow(10, part.dB / 20), part.seconds)]
    }
    let labels = parts.indices.map { "[\($0):a]" }.joined()
    let made = try await ProcessRunner.run(
        "ffmpeg",
        ["-v", "error", "-y"] + inputs + [
            "-filter_complex", "\(labels)concat=n=\(parts.count):v=0:a=1[o]",
            "-map", "[o]", "-c:a", "pcm_f32le", path,
        ])
    guard made.status == 0 else { throw TestSupportError("ffmpeg could not make \(name): \(made.stderr)") }
    return path
}

/// The meter (libebur128) against the reading it replaced (libavfilter's `ebur128`) on EBU Tech
/// 3341's minimum-requirement signals (here mono: the 1 kHz stretches and their gates) and on speech.
@Suite("Integrated loudness by libebur128 equals libavfilter's ebur128 reading")
struct LoudnessMeterTests {
    /// The two implementations agree within this (LU): both follow BS.1770 and the R128 gates.
    static let tolerance = 0.05

    @Test(
        "EBU Tech 3341-style signals: steady levels, the relative gate, the absolute gate",
        arguments: [
            [(-23.0, 20.0)], [(-33.0, 20.0)], [(-36.0, 10.0), (-23.0, 60.0), (-36.0, 10.0)],
            [(-72.0, 10.0), (-36.0, 10.0), (-23.0, 10.0), (-36.0, 10.0), (-72.0, 10.0)], [(-26.0, 20.1), (-20.0, 20.1), (-26.0, 20.1)],
        ] as [[(Double, Double)]])
    func tech3341(_ parts: [(Double, Double)]) async throws {
        let dir = TemporaryDirectory("r128")
        let file = try await sineSequence(parts.map { (dB: $0.0, seconds: $0.1) }, in: dir, name: "case.wav")
        let ours = try SoundInspector.inspect(file, measureLoudness: true).loudness!.integrated
        let theirs = try await libavfilterIntegrated(file)
        #expect(abs(ours - theirs) <= Self.tolerance, "libebur128 \(ours) LUFS, libavfilter \(theirs) LUFS")
    }

    @Test("Speech, and a short peaky utterance, at their own rates", arguments: ["manifesto.flac", "calm.wav", "kind.ogg"])
    func speech(_ name: String) async throws {
        let file = "\(ProjectPaths.sampleAudio)/\(name)"
        let ours = try SoundInspector.inspect(file, measureLoudness: true).loudness!.integrated
        let theirs = try await libavfilterIntegrated(file)
        #expect(abs(ours - theirs) <= Self.tolerance, "\(name): libebur128 \(ours) LUFS, libavfilter \(theirs) LUFS")
    }
}
