internal import CFFmpeg
import Foundation

/// The 16-bit samples of a PCM ringtone, as a count and a 128-bit MurmurHash3 (libavutil's
/// `av_murmur3`): the samples the encoder is given are digested as it takes them
/// (`AudioFileWriter.onSixteenBit`: libswresample's own conversion, not a model of it), the
/// samples the file holds as it is read back, and the two must match. (A collision needs a file
/// damaged in just the right way; nobody is trying, so a fast hash does.)
final class PCMDigest {
    private let context: OpaquePointer
    private(set) var count = 0

    /// The corresponding C functions are `av_murmur3_alloc` and `av_murmur3_init`.
    init() throws {
        try FFmpegResult.ready(path: "")
        guard let context = cffmpeg_av_murmur3_alloc()() else {
            throw AudioError.ffmpeg(path: "", function: "av_murmur3_alloc", code: cffmpeg_error_nomem(), message: "out of memory")
        }
        self.context = context
        cffmpeg_av_murmur3_init()(context)
    }

    deinit { cffmpeg_av_free()(UnsafeMutableRawPointer(context)) }

    /// Digests 16-bit samples and returns them as floats (over 32 768, exactly), for the meters.
    @discardableResult
    func add(_ samples: UnsafeBufferPointer<Int16>) -> [Float] {
        if let base = samples.baseAddress {
            base.withMemoryRebound(to: UInt8.self, capacity: samples.count * 2) { cffmpeg_av_murmur3_update()(context, $0, samples.count * 2) }
        }
        count += samples.count
        return samples.map { Float($0) * (1 / 32_768) }
    }

    /// Digests samples decoded from 16 bits (each a whole number over 32 768, so the product
    /// is exact and the conversion loses nothing).
    func add(decoded samples: ArraySlice<Float>) {
        let values = samples.map { Int16(max(-32_768, min(32_767, $0 * 32_768))) }
        values.withUnsafeBufferPointer { buffer in
            if let base = buffer.baseAddress {
                base.withMemoryRebound(to: UInt8.self, capacity: buffer.count * 2) { cffmpeg_av_murmur3_update()(context, $0, buffer.count * 2) }
            }
        }
        count += samples.count
    }

    /// The digest, as hex. The corresponding C function is `av_murmur3_final`.
    func finish() -> String {
        var digest = [UInt8](repeating: 0, count: 16)
        cffmpeg_av_murmur3_final()(context, &digest)
        return digest.map { String(format: "%02x", $0) }.joined()
    }
}
