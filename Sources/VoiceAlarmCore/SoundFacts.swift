/// What was measured of an audio file, as the input to `ShippableSound.problems(of:)`.
package struct SoundFacts: Equatable, Sendable, Codable {
    /// The file's extension, lowercased, without the dot ("" when it has none).
    package var fileExtension: String
    /// FFmpeg's demuxer name, e.g. `mov,mp4,m4a,3gp,3g2,mj2`, `caf`, `wav`.
    package var container: String
    /// FFmpeg's codec name, e.g. `aac`, `pcm_s16le`.
    package var codec: String
    package var sampleRate: Int
    package var channels: Int
    /// Seconds, from the decoded sample count (not the header).
    package var duration: Double
    /// Largest absolute sample value, linear (0...1 for integer sources).
    package var peak: Double

    package init(fileExtension: String, container: String, codec: String, sampleRate: Int, channels: Int, duration: Double, peak: Double) {
        self.fileExtension = fileExtension
        self.container = container
        self.codec = codec
        self.sampleRate = sampleRate
        self.channels = channels
        self.duration = duration
        self.peak = peak
    }
}
