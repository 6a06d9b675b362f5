internal import CFFmpeg
import Foundation

/// Streams mono float samples into an encoded file: open, append as often as needed, finish.
///
/// Sample-format conversion for the encoder goes through libswresample. Encoders with a fixed
/// frame size get exactly that many samples per frame (buffered here); the last frame is short
/// where the encoder allows it, else padded with silence.
final class AudioFileWriter {
    /// What to write: the muxer, the encoder, its settings.
    struct Spec {
        var muxer: String
        var encoder: String
        var sampleRate: Int
        var bitRate: Int64?
        /// Bits per sample to keep when the encoder stores integers wider than 16 (FLAC: 24).
        var bitsPerRawSample: Int32?
        /// Sample formats to prefer, in order, among those the encoder takes.
        var preferredFormats: [AVSampleFormat] = [AV_SAMPLE_FMT_FLTP, AV_SAMPLE_FMT_FLT, AV_SAMPLE_FMT_S16, AV_SAMPLE_FMT_S16P]
        /// Muxer options, e.g. `movflags=+faststart`.
        var muxerOptions: [String: String] = [:]
    }

    let path: String
    private let output: OutputFormatHandle
    private let context: CodecContextHandle
    private let stream: UnsafeMutablePointer<AVStream>
    private let converter: ResamplerHandle
    private let frame: FrameHandle
    private let packet: PacketHandle
    private let frameSize: Int
    private let padsLastFrame: Bool
    private var buffered: [Float] = []
    /// Shown the 16-bit samples exactly as the encoder is given them, when it takes 16-bit
    /// samples (PCM): what the file will hold, with no model of the conversion.
    var onSixteenBit: ((UnsafeBufferPointer<Int16>) throws -> Void)?
    private var samplesWritten = 0
    private var finished = false

    /// The frame size of the encoder, 0 when it takes any length.
    var encoderFrameSize: Int { Int(context.pointer.pointee.frame_size) }

    init(_ spec: Spec, path: String) throws {
        try FFmpegResult.ready(path: path)
        self.path = path
        guard let encoder = cffmpeg_avcodec_find_encoder_by_name()(spec.encoder) else {
            throw AudioError.cannotWrite(path: path, reason: "this FFmpeg has no \(spec.encoder) encoder")
        }
        output = try OutputFormatHandle(muxer: spec.muxer, path: path)
        guard let stream = cffmpeg_avformat_new_stream()(output.pointer, nil) else {
            throw AudioError.ffmpeg(path: path, function: "avformat_new_stream", code: cffmpeg_error_nomem(), message: "out of memory")
        }
        self.stream = stream
        context = try CodecContextHandle(codec: encoder, path: path)
        let enc = context.pointer
        enc.pointee.sample_fmt = Self.sampleFormat(of: encoder, preferring: spec.preferredFormats)
        enc.pointee.sample_rate = Int32(spec.sampleRate)
        enc.pointee.ch_layout = .defaultLayout(channels: 1)
        enc.pointee.time_base = AVRational(num: 1, den: Int32(spec.sampleRate))
        if let bitRate = spec.bitRate { enc.pointee.bit_rate = bitRate }
        if let bits = spec.bitsPerRawSample { enc.pointee.bits_per_raw_sample = bits }
        if Int32(output.pointer.pointee.oformat.pointee.flags) & AVFMT_GLOBALHEADER != 0 {
            enc.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        }
        try FFmpegResult.check(cffmpeg_avcodec_open2()(enc, encoder, nil), "avcodec_open2(\(spec.encoder))", path: path)
        try FFmpegResult.check(cffmpeg_avcodec_parameters_from_context()(stream.pointee.codecpar, enc), "avcodec_parameters_from_context", path: path)
        stream.pointee.time_base = enc.pointee.time_base

        try FFmpegResult.check(cffmpeg_avio_open()(&output.pointer.pointee.pb, path, AVIO_FLAG_WRITE), "avio_open", path: path)
        var options: OpaquePointer?
        for (key, value) in spec.muxerOptions { cffmpeg_av_dict_set()(&options, key, value, 0) }
        defer { cffmpeg_av_dict_free()(&options) }
        try FFmpegResult.check(cffmpeg_avformat_write_header()(output.pointer, &options), "avformat_write_header", path: path)

        var mono = AVChannelLayout.defaultLayout(channels: 1)
        var target = AVChannelLayout.defaultLayout(channels: 1)
        converter = try ResamplerHandle(
            from: &mono, format: AV_SAMPLE_FMT_FLT, rate: Int32(spec.sampleRate),
            to: &target, format: enc.pointee.sample_fmt, rate: Int32(spec.sampleRate), path: path)
        frame = try FrameHandle(path: path)
        packet = try PacketHandle(path: path)
        let caps = Int32(encoder.pointee.capabilities)
        let variable = caps & AV_CODEC_CAP_VARIABLE_FRAME_SIZE != 0 || enc.pointee.frame_size <= 0
        frameSize = variable ? 4096 : Int(enc.pointee.frame_size)
        padsLastFrame = !variable && caps & AV_CODEC_CAP_SMALL_LAST_FRAME == 0
    }

    /// Encodes `samples` after those already appended.
    func append<C: Collection>(_ samples: C) throws where C.Element == Float {
        precondition(!finished, "append after finish")
        buffered.append(contentsOf: samples)
        var offset = 0
        while buffered.count - offset >= frameSize {
            try encode(buffered[offset..<offset + frameSize])
            offset += frameSize
        }
        buffered.removeFirst(offset)
    }

    /// Encodes what is buffered, flushes the encoder, writes the trailer and closes the file.
    func finish() throws {
        precondition(!finished, "finish twice")
        finished = true
        if !buffered.isEmpty { try encode(buffered[...]) }
        buffered = []
        try FFmpegResult.check(cffmpeg_avcodec_send_frame()(context.pointer, nil), "avcodec_send_frame", path: path)
        try drain()
        try FFmpegResult.check(cffmpeg_av_write_trailer()(output.pointer), "av_write_trailer", path: path)
        try FFmpegResult.check(cffmpeg_avio_closep()(&output.pointer.pointee.pb), "avio_closep", path: path)
    }

    private func encode(_ samples: ArraySlice<Float>) throws {
        let enc = context.pointer
        let f = frame.pointer
        let count = samples.count
        f.pointee.nb_samples = Int32(padsLastFrame ? frameSize : count)
        f.pointee.format = enc.pointee.sample_fmt.rawValue
        f.pointee.sample_rate = enc.pointee.sample_rate
        f.pointee.ch_layout = .defaultLayout(channels: 1)
        f.pointee.pts = Int64(samplesWritten)
        try FFmpegResult.check(cffmpeg_av_frame_get_buffer()(f, 0), "av_frame_get_buffer", path: path)
        defer { cffmpeg_av_frame_unref()(f) }
        if padsLastFrame && count < frameSize {
            cffmpeg_av_samples_set_silence()(f.pointee.extended_data, 0, Int32(frameSize), 1, enc.pointee.sample_fmt)
        }
        let converted = samples.withUnsafeBytes { bytes -> Int32 in
            var source: UnsafePointer<UInt8>? = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
            return withUnsafeMutablePointer(to: &source) { sources in
                cffmpeg_swr_convert()(converter.pointer, f.pointee.extended_data, Int32(count), sources, Int32(count))
            }
        }
        try FFmpegResult.check(converted, "swr_convert", path: path)
        if let onSixteenBit, enc.pointee.sample_fmt == AV_SAMPLE_FMT_S16 {
            try f.pointee.data.0!.withMemoryRebound(to: Int16.self, capacity: Int(converted)) {
                try onSixteenBit(UnsafeBufferPointer(start: $0, count: Int(converted)))
            }
        }
        try FFmpegResult.check(cffmpeg_avcodec_send_frame()(enc, f), "avcodec_send_frame", path: path)
        samplesWritten += count
        try drain()
    }

    private func drain() throws {
        let enc = context.pointer
        while true {
            let rc = cffmpeg_avcodec_receive_packet()(enc, packet.pointer)
            if rc == FFmpegResult.again || rc == FFmpegResult.eof { return }
            try FFmpegResult.check(rc, "avcodec_receive_packet", path: path)
            cffmpeg_av_packet_rescale_ts()(packet.pointer, enc.pointee.time_base, stream.pointee.time_base)
            packet.pointer.pointee.stream_index = stream.pointee.index
            try FFmpegResult.check(cffmpeg_av_interleaved_write_frame()(output.pointer, packet.pointer), "av_interleaved_write_frame", path: path)
        }
    }

    /// The first of `preferred` the encoder takes, else its first. `sample_fmts` is deprecated
    /// from FFmpeg 7.1: this is the one place that reads it.
    private static func sampleFormat(of encoder: UnsafePointer<AVCodec>, preferring preferred: [AVSampleFormat]) -> AVSampleFormat {
        var supported: [AVSampleFormat] = []
        if var cursor = encoder.pointee.sample_fmts {
            while cursor.pointee != AV_SAMPLE_FMT_NONE { supported.append(cursor.pointee); cursor += 1 }
        }
        return preferred.first(where: supported.contains) ?? supported.first ?? AV_SAMPLE_FMT_S16
    }
}
