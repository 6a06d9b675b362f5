internal import CFFmpeg

/// Mono audio through libswresample with its default filter, from one rate to another, to
/// double-precision samples: the meters' view of the audio.
///
/// The input is `Float` or `Double` (libswresample's internal precision follows it, as in
/// libavfilter's own conversions); the output is `Double`.
final class Resampler {
    private let handle: ResamplerHandle
    private let path: String
    private let inputFormat: AVSampleFormat

    /// - Parameters:
    ///   - input: the element type pushed (`Float.self` or `Double.self`).
    ///   - path: the file the audio belongs to, for error messages.
    init<T: BinaryFloatingPoint>(from inRate: Int, to outRate: Int, input: T.Type, path: String) throws {
        precondition(T.self == Float.self || T.self == Double.self, "the resampler takes Float or Double")
        self.path = path
        inputFormat = T.self == Float.self ? AV_SAMPLE_FMT_FLT : AV_SAMPLE_FMT_DBL
        var inLayout = AVChannelLayout.defaultLayout(channels: 1)
        var outLayout = AVChannelLayout.defaultLayout(channels: 1)
        handle = try ResamplerHandle(from: &inLayout, format: inputFormat, rate: Int32(inRate),
                                     to: &outLayout, format: AV_SAMPLE_FMT_DBL, rate: Int32(outRate), path: path)
    }

    /// The output for `samples`, as far as the filter can go without later input.
    func convert<T: BinaryFloatingPoint>(_ samples: [T]) throws -> [Double] {
        precondition((T.self == Float.self) == (inputFormat == AV_SAMPLE_FMT_FLT), "the resampler was made for another input type")
        return try samples.withUnsafeBytes { bytes in
            try run(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), count: samples.count)
        }
    }

    /// Starts over, as if nothing had been pushed (the filter's tables are kept: cheap).
    /// The corresponding C function is `swr_init`.
    func reset() throws { try FFmpegResult.check(swr_init(handle.pointer), "swr_init", path: path) }

    /// What the filter still holds, once no more input comes.
    func flush() throws -> [Double] { try run(nil, count: 0) }

    /// The corresponding C function is `swr_convert`.
    private func run(_ input: UnsafePointer<UInt8>?, count: Int) throws -> [Double] {
        let capacity = Int(swr_get_out_samples(handle.pointer, Int32(count)))
        guard capacity > 0 else { return [] }
        var out = [Double](repeating: 0, count: capacity)
        let produced = out.withUnsafeMutableBytes { buffer -> Int32 in
            var destination: UnsafeMutablePointer<UInt8>? = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            return withUnsafeMutablePointer(to: &destination) { outs in
                guard let input else { return swr_convert(handle.pointer, outs, Int32(capacity), nil, 0) }
                var source: UnsafePointer<UInt8>? = input
                return withUnsafeMutablePointer(to: &source) { swr_convert(handle.pointer, outs, Int32(capacity), $0, Int32(count)) }
            }
        }
        try FFmpegResult.check(produced, "swr_convert", path: path)
        out.removeLast(capacity - Int(produced))
        return out
    }
}
