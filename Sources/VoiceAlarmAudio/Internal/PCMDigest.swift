import Foundation

/// The 16-bit samples of a PCM ringtone, as a count and a SHA-256 digest: what was written is
/// digested as it is encoded, what the file holds as it is read back, and the two must match.
///
/// A float becomes the 16-bit value libswresample writes for it: scaled by 32 768, rounded to
/// nearest (ties to even, as `lrintf`), clamped. A sample read back from 16 bits is that value
/// over 32 768 exactly, so it digests to the same value.
final class PCMDigest {
    private let hasher: ContentHash.Hasher
    private(set) var count = 0
    private var quantized: [Int16] = []

    init() throws { hasher = try ContentHash.Hasher() }

    /// Digests `samples` and returns them as the 16-bit file holds them (for the meters).
    @discardableResult
    func add(_ samples: ArraySlice<Float>) -> [Float] {
        quantized.removeAll(keepingCapacity: true)
        for sample in samples { quantized.append(Self.quantize(sample)) }
        quantized.withUnsafeBytes(hasher.update(bytes:))
        count += samples.count
        return quantized.map { Float($0) / 32_768 }
    }

    func finish() -> String { hasher.finish() }

    static func quantize(_ sample: Float) -> Int16 {
        let scaled = (sample * 32_768).rounded(.toNearestOrEven)
        return scaled.isNaN ? 0 : Int16(max(-32_768, min(32_767, scaled)))
    }
}
