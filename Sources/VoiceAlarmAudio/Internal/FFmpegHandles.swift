internal import CFFmpeg

// Owning wrappers: each C handle lives in exactly one object that frees it in deinit,
// so a throwing initializer that fails half-way leaks nothing.

/// An `AVFrame`. The corresponding C functions are `av_frame_alloc` / `av_frame_free`.
final class FrameHandle {
    let pointer: UnsafeMutablePointer<AVFrame>
    init(path: String) throws {
        try FFmpegResult.ready(path: path)
        guard let frame = cffmpeg_av_frame_alloc()() else {
            throw AudioError.ffmpeg(path: path, function: "av_frame_alloc", code: cffmpeg_error_nomem(), message: "out of memory")
        }
        pointer = frame
    }
    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        cffmpeg_av_frame_free()(&frame)
    }
}

/// An `AVPacket`. The corresponding C functions are `av_packet_alloc` / `av_packet_free`.
final class PacketHandle {
    let pointer: UnsafeMutablePointer<AVPacket>
    init(path: String) throws {
        try FFmpegResult.ready(path: path)
        guard let packet = cffmpeg_av_packet_alloc()() else {
            throw AudioError.ffmpeg(path: path, function: "av_packet_alloc", code: cffmpeg_error_nomem(), message: "out of memory")
        }
        pointer = packet
    }
    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        cffmpeg_av_packet_free()(&packet)
    }
}

/// A demuxer opened on a file. The corresponding C functions are `avformat_open_input` / `avformat_close_input`.
final class InputFormatHandle {
    var pointer: UnsafeMutablePointer<AVFormatContext>?
    init(path: String) throws {
        try FFmpegResult.ready(path: path)
        let rc = cffmpeg_avformat_open_input()(&pointer, path, nil, nil)
        guard rc >= 0, pointer != nil else {
            throw AudioError.notAudio(path: path, reason: FFmpegResult.message(rc))
        }
    }
    deinit { cffmpeg_avformat_close_input()(&pointer) }
}

/// A muxer writing a file. The corresponding C functions are `avformat_alloc_output_context2`,
/// `avio_open` / `avio_closep` and `avformat_free_context`.
final class OutputFormatHandle {
    let pointer: UnsafeMutablePointer<AVFormatContext>
    init(muxer: String, path: String) throws {
        try FFmpegResult.ready(path: path)
        var context: UnsafeMutablePointer<AVFormatContext>?
        let rc = cffmpeg_avformat_alloc_output_context2()(&context, nil, muxer, path)
        guard rc >= 0, let context else {
            throw AudioError.ffmpeg(path: path, function: "avformat_alloc_output_context2", code: rc, message: FFmpegResult.message(rc))
        }
        pointer = context
    }
    deinit {
        if pointer.pointee.pb != nil { cffmpeg_avio_closep()(&pointer.pointee.pb) }
        cffmpeg_avformat_free_context()(pointer)
    }
}

/// A codec context, decoder or encoder. The corresponding C functions are `avcodec_alloc_context3` / `avcodec_free_context`.
final class CodecContextHandle {
    var pointer: UnsafeMutablePointer<AVCodecContext>
    init(codec: UnsafePointer<AVCodec>, path: String) throws {
        try FFmpegResult.ready(path: path)
        guard let context = cffmpeg_avcodec_alloc_context3()(codec) else {
            throw AudioError.ffmpeg(path: path, function: "avcodec_alloc_context3", code: cffmpeg_error_nomem(), message: "out of memory")
        }
        pointer = context
    }
    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = pointer
        cffmpeg_avcodec_free_context()(&context)
    }
}

/// A libswresample context converting between sample formats, rates and layouts.
/// The corresponding C functions are `swr_alloc_set_opts2`, `swr_init` / `swr_free`.
final class ResamplerHandle {
    var pointer: OpaquePointer?
    init(
        from inLayout: UnsafeMutablePointer<AVChannelLayout>, format inFormat: AVSampleFormat, rate inRate: Int32,
        to outLayout: UnsafeMutablePointer<AVChannelLayout>, format outFormat: AVSampleFormat, rate outRate: Int32,
        path: String
    ) throws {
        try FFmpegResult.ready(path: path)
        try FFmpegResult.check(
            cffmpeg_swr_alloc_set_opts2()(&pointer, outLayout, outFormat, outRate, inLayout, inFormat, inRate, 0, nil),
            "swr_alloc_set_opts2", path: path)
        try FFmpegResult.check(cffmpeg_swr_init()(pointer), "swr_init", path: path)
    }
    deinit { cffmpeg_swr_free()(&pointer) }
}

/// A filter graph. The corresponding C functions are `avfilter_graph_alloc` / `avfilter_graph_free`.
final class FilterGraphHandle {
    var pointer: UnsafeMutablePointer<AVFilterGraph>?
    init(path: String) throws {
        try FFmpegResult.ready(path: path)
        pointer = cffmpeg_avfilter_graph_alloc()()
        guard pointer != nil else {
            throw AudioError.ffmpeg(path: path, function: "avfilter_graph_alloc", code: cffmpeg_error_nomem(), message: "out of memory")
        }
    }
    deinit { cffmpeg_avfilter_graph_free()(&pointer) }
}

extension AVChannelLayout {
    /// FFmpeg's default layout for `channels` (mono, stereo, 5.1, …).
    /// The corresponding C function is `av_channel_layout_default`.
    static func defaultLayout(channels: Int32) -> AVChannelLayout {
        var layout = AVChannelLayout()
        cffmpeg_av_channel_layout_default()(&layout, channels)
        return layout
    }
}
