import Foundation

/// Audio made on demand by the ffmpeg command-line tool (not by VoiceAlarm), so that tests
/// feed the product inputs it did not make itself.
public enum AudioFixtures {
    /// lavfi's `sine` source peaks at 1/8 of full scale.
    static let sineSourcePeak = -18.0618

    /// A sine tone of exactly `seconds` at `rate` Hz and `channels` channels, peaking at `level` dBFS,
    /// encoded with `codec` (nil: the container's default) into `path`.
    public static func tone(
        _ path: String, seconds: Double, rate: Int = 44_100, channels: Int = 1,
        frequency: Double = 440, level: Double = -12, codec: String? = nil,
        extra: [String] = []
    ) async throws {
        var arguments = [
            "-v", "error", "-y", "-f", "lavfi", "-i",
            "sine=frequency=\(frequency):sample_rate=\(rate):duration=\(seconds)",
            "-af", "volume=\(level - sineSourcePeak)dB", "-ac", "\(channels)",
        ]
        if let codec { arguments += ["-c:a", codec] }
        try await ProcessRunner.mustRun("ffmpeg", arguments + extra + [path])
    }

    /// `lead` seconds of silence, `seconds` of tone, `tail` seconds of silence, as 16-bit WAV.
    public static func paddedTone(_ path: String, lead: Double, seconds: Double, tail: Double, rate: Int = 44_100) async throws {
        let filter = "[0][1][2]concat=n=3:v=0:a=1"
        try await ProcessRunner.mustRun(
            "ffmpeg",
            [
                "-v", "error", "-y",
                "-f", "lavfi", "-i", "anullsrc=r=\(rate):cl=mono:d=\(lead)",
                "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=\(rate):duration=\(seconds)",
                "-f", "lavfi", "-i", "anullsrc=r=\(rate):cl=mono:d=\(tail)",
                "-filter_complex", filter, "-c:a", "pcm_s16le", path,
            ])
    }

    /// Digital silence of `seconds`.
    public static func silence(_ path: String, seconds: Double, rate: Int = 44_100) async throws {
        try await ProcessRunner.mustRun("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "anullsrc=r=\(rate):cl=mono", "-t", "\(seconds)", path])
    }

    /// The first half of `source`'s bytes, as a file cut off in the middle of a copy.
    public static func truncatedCopy(of source: String, to path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: path))
    }

    /// `source` cut by Python in the middle of its last audio frame (ffprobe names the frame's
    /// offset and size), as a browser's recording stopped while a frame was being written.
    /// Returns the length of that frame in seconds, as the container gives it.
    @discardableResult
    public static func cutMidFrame(_ source: String, to path: String) async throws -> Double {
        let probe = try await ProcessRunner.run(
            "ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "packet=pos,size,duration_time", "-of", "json", source])
        let packets = (try JSONSerialization.jsonObject(with: probe.stdoutData) as? [String: Any])?["packets"] as? [[String: Any]] ?? []
        guard let last = packets.last, let position = Int(last["pos"] as? String ?? ""), let size = Int(last["size"] as? String ?? ""),
            size > 8
        else { throw TestSupportError("ffprobe named no last packet in \(source): \(probe.stderr)") }
        let cut = position + size / 2
        let script = "import sys; data = open(sys.argv[1], 'rb').read(); open(sys.argv[2], 'wb').write(data[:int(sys.argv[3])])"
        try await ProcessRunner.mustRun("python3", ["-c", script, source, path, String(cut)])
        return Double(last["duration_time"] as? String ?? "") ?? 0
    }

    /// `source` with its middle third overwritten by the same pseudo-random bytes every run.
    public static func corruptedCopy(of source: String, to path: String) throws {
        var data = try Data(contentsOf: URL(fileURLWithPath: source))
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for i in (data.count / 3)..<(2 * data.count / 3) {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17  // xorshift64
            data[i] = UInt8(truncatingIfNeeded: state)
        }
        try data.write(to: URL(fileURLWithPath: path))
    }
}
