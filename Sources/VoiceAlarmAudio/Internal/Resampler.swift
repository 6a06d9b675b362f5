internal import CFFmpeg

/// Mono float audio through libswresample with its default filter, from one rate to another:
/// the true-peak meter's oversampling.
final class Resampler {
    private let handle: ResamplerHandle
    private let path: String

    /// - Parameter path: the file the audio belongs to, for error messages.
    init(from inRate: Int, to outRate: Int, path: String) throws {
        self.path = path
        var inLayout = AVChannelLayout.defaultLayout(channels: 1)
        var outLayout = AVChannelLayout.defaultLayout(channels: 1)
        handle = try ResamplerHandle(
            from: &inLayout, format: AV_SAMPLE_FMT_FLT, rate: Int32(inRate),
            to: &outLayout, format: AV_SAMPLE_FMT_FLT, rate: Int32(outRate), path: path)
    }

    /// The output for `samples`, as far as the filter can go without later input.
    func convert(_ samples: ArraySlice<Float>) throws -> [Float] {
        guard !samples.isEmpty else { return [] }  // no input to swr_convert means "flush"
        return try samples.withUnsafeBytes { bytes in
            try run(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), count: samples.count)
        }
    }

    /// What the filter still holds, once no more input comes.
    func flush() throws -> [Float] { try run(nil, count: 0) }

    /// Starts over, as if nothing had been pushed (the filter's tables are kept: cheap).
    /// The corresponding C function is `swr_init`.
    func reset() throws { try FFmpegResult.check(cffmpeg_swr_init()(handle.pointer), "swr_init", path: path) }

    /// The corresponding C function is `swr_convert`.
    private func run(_ input: UnsafePointer<UInt8>?, count: Int) throws -> [Float] {
        let capacity = Int(cffmpeg_swr_get_out_samples()(handle.pointer, Int32(count)))
        guard capacity > 0 else { return [] }
        var written: Int32 = 0
        let out = [Float](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            var destination: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(buffer.baseAddress!).assumingMemoryBound(to: UInt8.self)
            written = withUnsafeMutablePointer(to: &destination) { outs in
                guard let input else { return cffmpeg_swr_convert()(handle.pointer, outs, Int32(capacity), nil, 0) }
                var source: UnsafePointer<UInt8>? = input
                return withUnsafeMutablePointer(to: &source) { cffmpeg_swr_convert()(handle.pointer, outs, Int32(capacity), $0, Int32(count)) }
            }
            initialized = max(0, Int(written))
        }
        try FFmpegResult.check(written, "swr_convert", path: path)
        return out
    }
}
