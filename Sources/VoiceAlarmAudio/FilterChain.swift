internal import CFFmpeg
import Foundation

/// Runs mono float audio through a libavfilter chain (e.g. `volume=3dB,alimiter=…`) and
/// collects what comes out, plus the metadata filters attach to frames (ebur128's readings).
///
/// The chain sees mono float at `sampleRate`; FFmpeg inserts any conversion a filter needs
/// (ebur128 wants doubles; in FFmpeg 5.1 it takes any rate), and the output is brought back to
/// mono float at `sampleRate`.
/// Audio can be pushed in pieces (`push`, then `finish`), so a long take is measured as it is read,
/// and what comes out can go on to the next stage as it comes (`onOutput`) instead of being kept.
final class FilterChain {
    /// The chain in FFmpeg's filtergraph syntax.
    let description: String
    let sampleRate: Int
    private let path: String
    private let keepSamples: Bool
    private let graph: FilterGraphHandle
    private let source: UnsafeMutablePointer<AVFilterContext>
    private let sink: UnsafeMutablePointer<AVFilterContext>
    private let frame: FrameHandle
    private var pushed = 0
    private var result = Output(samples: [], metadata: [:])
    /// Where filtered samples go as they come out, instead of into `Output.samples`.
    var onOutput: ((ArraySlice<Float>) throws -> Void)?

    /// What came out.
    struct Output {
        var samples: [Float]
        /// Frame metadata, the last value seen for each key.
        var metadata: [String: String]
    }

    /// Builds the chain. `path` names the file the audio belongs to, for error messages;
    /// `keepSamples: false` keeps only metadata (a meter).
    init(description: String, sampleRate: Int, path: String, keepSamples: Bool = true) throws {
        try FFmpegResult.ready(path: path)
        self.description = description
        self.sampleRate = sampleRate
        self.path = path
        self.keepSamples = keepSamples
        graph = try FilterGraphHandle(path: path)
        var source: UnsafeMutablePointer<AVFilterContext>?
        var sink: UnsafeMutablePointer<AVFilterContext>?
        let sourceArgs = "time_base=1/\(sampleRate):sample_rate=\(sampleRate):sample_fmt=flt:channel_layout=mono"
        try FFmpegResult.check(
            cffmpeg_avfilter_graph_create_filter()(&source, cffmpeg_avfilter_get_by_name()("abuffer"), "in", sourceArgs, nil, graph.pointer),
            "avfilter_graph_create_filter(abuffer)", path: path)
        try FFmpegResult.check(
            cffmpeg_avfilter_graph_create_filter()(&sink, cffmpeg_avfilter_get_by_name()("abuffersink"), "out", nil, nil, graph.pointer),
            "avfilter_graph_create_filter(abuffersink)", path: path)
        self.source = source!
        self.sink = sink!

        // As FFmpeg's doc/examples/filtering_audio.c: parse_ptr links what it can and hands back
        // the rest in the same variables, which are freed afterwards.
        var outputs = cffmpeg_avfilter_inout_alloc()()
        var inputs = cffmpeg_avfilter_inout_alloc()()
        defer { cffmpeg_avfilter_inout_free()(&outputs); cffmpeg_avfilter_inout_free()(&inputs) }
        guard let output = outputs, let input = inputs else {
            throw AudioError.ffmpeg(path: path, function: "avfilter_inout_alloc", code: cffmpeg_error_nomem(), message: "out of memory")
        }
        output.pointee.name = cffmpeg_av_strdup()("in")
        output.pointee.filter_ctx = source
        input.pointee.name = cffmpeg_av_strdup()("out")
        input.pointee.filter_ctx = sink
        let chain = description + ",aformat=sample_fmts=flt:sample_rates=\(sampleRate):channel_layouts=mono"
        try FFmpegResult.check(
            cffmpeg_avfilter_graph_parse_ptr()(graph.pointer, chain, &inputs, &outputs, nil),
            "avfilter_graph_parse_ptr(\(description))", path: path)
        try FFmpegResult.check(cffmpeg_avfilter_graph_config()(graph.pointer, nil), "avfilter_graph_config", path: path)
        frame = try FrameHandle(path: path)
    }

    /// Runs a graph that makes its own audio (a `sine` source and its filters) to the end, and
    /// returns it as mono float at `sampleRate`.
    static func generate(_ description: String, sampleRate: Int, path: String) throws -> [Float] {
        try FFmpegResult.ready(path: path)
        let graph = try FilterGraphHandle(path: path)
        var sink: UnsafeMutablePointer<AVFilterContext>?
        try FFmpegResult.check(
            cffmpeg_avfilter_graph_create_filter()(&sink, cffmpeg_avfilter_get_by_name()("abuffersink"), "out", nil, nil, graph.pointer),
            "avfilter_graph_create_filter(abuffersink)", path: path)
        var inputs = cffmpeg_avfilter_inout_alloc()()
        defer { cffmpeg_avfilter_inout_free()(&inputs) }
        guard let input = inputs else {
            throw AudioError.ffmpeg(path: path, function: "avfilter_inout_alloc", code: cffmpeg_error_nomem(), message: "out of memory")
        }
        input.pointee.name = cffmpeg_av_strdup()("out")
        input.pointee.filter_ctx = sink
        var outputs: UnsafeMutablePointer<AVFilterInOut>?
        let chain = description + ",aformat=sample_fmts=flt:sample_rates=\(sampleRate):channel_layouts=mono"
        try FFmpegResult.check(
            cffmpeg_avfilter_graph_parse_ptr()(graph.pointer, chain, &inputs, &outputs, nil),
            "avfilter_graph_parse_ptr(\(description))", path: path)
        cffmpeg_avfilter_inout_free()(&outputs)
        try FFmpegResult.check(cffmpeg_avfilter_graph_config()(graph.pointer, nil), "avfilter_graph_config", path: path)
        let frame = try FrameHandle(path: path)
        var samples: [Float] = []
        while true {
            let rc = cffmpeg_av_buffersink_get_frame()(sink, frame.pointer)
            if rc == FFmpegResult.eof { return samples }
            try FFmpegResult.check(rc, "av_buffersink_get_frame", path: path)
            let count = Int(frame.pointer.pointee.nb_samples)
            frame.pointer.pointee.data.0!.withMemoryRebound(to: Float.self, capacity: count) {
                samples.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
            }
            cffmpeg_av_frame_unref()(frame.pointer)
        }
    }

    /// Filters a whole buffer in one go.
    static func run(_ description: String, on samples: [Float], sampleRate: Int, path: String, keepSamples: Bool = true) throws -> Output {
        let chain = try FilterChain(description: description, sampleRate: sampleRate, path: path, keepSamples: keepSamples)
        try chain.push(samples)
        return try chain.finish()
    }

    /// Feeds the next samples through the chain.
    func push<C: Collection>(_ samples: C) throws where C.Element == Float, C.Index == Int {
        var offset = samples.startIndex
        while offset < samples.endIndex {
            let count = min(4096, samples.endIndex - offset)
            let f = frame.pointer
            f.pointee.nb_samples = Int32(count)
            f.pointee.format = AV_SAMPLE_FMT_FLT.rawValue
            f.pointee.sample_rate = Int32(sampleRate)
            f.pointee.ch_layout = .defaultLayout(channels: 1)
            f.pointee.pts = Int64(pushed)
            try FFmpegResult.check(cffmpeg_av_frame_get_buffer()(f, 0), "av_frame_get_buffer", path: path)
            f.pointee.data.0!.withMemoryRebound(to: Float.self, capacity: count) { destination in
                let copied =
                    samples[offset..<offset + count].withContiguousStorageIfAvailable { source in
                        destination.update(from: source.baseAddress!, count: count)
                        return true
                    } ?? false
                if !copied { for i in 0..<count { destination[i] = samples[offset + i] } }
            }
            // The source takes the frame's buffers and leaves it blank for reuse.
            try FFmpegResult.check(cffmpeg_av_buffersrc_add_frame_flags()(source, f, 0), "av_buffersrc_add_frame_flags", path: path)
            pushed += count
            offset += count
            try pull()
        }
    }

    /// Drains the chain and returns everything that came out.
    func finish() throws -> Output {
        try FFmpegResult.check(cffmpeg_av_buffersrc_add_frame_flags()(source, nil, 0), "av_buffersrc_add_frame_flags", path: path)
        try pull()
        return result
    }

    private func pull() throws {
        let f = frame.pointer
        while true {
            let rc = cffmpeg_av_buffersink_get_frame()(sink, f)
            if rc == FFmpegResult.again || rc == FFmpegResult.eof { return }
            try FFmpegResult.check(rc, "av_buffersink_get_frame", path: path)
            defer { cffmpeg_av_frame_unref()(f) }
            let count = Int(f.pointee.nb_samples)
            if let onOutput {
                let samples = f.pointee.data.0!.withMemoryRebound(to: Float.self, capacity: count) { Array(UnsafeBufferPointer(start: $0, count: count)) }
                try onOutput(samples[...])
            } else if keepSamples {
                f.pointee.data.0!.withMemoryRebound(to: Float.self, capacity: count) { pointer in
                    result.samples.append(contentsOf: UnsafeBufferPointer(start: pointer, count: count))
                }
            }
            var entry: UnsafeMutablePointer<AVDictionaryEntry>?
            while let next = cffmpeg_av_dict_get()(f.pointee.metadata, "", entry, AV_DICT_IGNORE_SUFFIX) {
                result.metadata[String(cString: next.pointee.key)] = String(cString: next.pointee.value)
                entry = next
            }
        }
    }
}
