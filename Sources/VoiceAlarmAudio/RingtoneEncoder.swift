internal import CFFmpeg
import Foundation
import VoiceAlarmCore

/// Writes mono float samples to a ringtone file in one of the five formats.
///
/// m4a is AAC-LC through the `ipod` muxer with `+faststart` (the `moov` box first); the muxer's
/// edit list hides the encoder delay, so the file decodes to exactly the samples given. Sample
/// format conversion for the encoder goes through libswresample.
struct RingtoneEncoder {
    let format: RingtoneFormat
    let codec: RingtoneCodec
    let sampleRate: Int

    init(settings: RenderSettings) {
        format = settings.format
        codec = settings.codec
        sampleRate = settings.sampleRate
    }

    /// Bit rate for the lossy codecs: plenty for a single voice.
    static let bitRate: Int64 = 96_000

    /// The FFmpeg encoder to use: the native AAC encoder, LAME for mp3, the PCM and ADPCM encoders.
    private var encoderName: String {
        codec == .mp3 ? "libmp3lame" : format.ffmpegCodecName(codec)
    }

    /// Encodes `samples` into a new file at `path` (overwriting it).
    /// - Throws: `AudioError.ffmpeg` naming the failing call.
    func write(_ samples: [Float], to path: String) throws {
        _ = FFmpegResult.quietLogging
        guard let encoder = avcodec_find_encoder_by_name(encoderName) else {
            throw AudioError.cannotWrite(path: path, reason: "this FFmpeg has no \(encoderName) encoder")
        }
        let output = try OutputFormatHandle(muxer: format.muxerName, path: path)
        guard let stream = avformat_new_stream(output.pointer, nil) else {
            throw AudioError.ffmpeg(path: path, function: "avformat_new_stream", code: cffmpeg_error_nomem(), message: "out of memory")
        }
        let context = try CodecContextHandle(codec: encoder, path: path)
        let enc = context.pointer
        enc.pointee.sample_fmt = Self.preferredSampleFormat(of: encoder)
        enc.pointee.sample_rate = Int32(sampleRate)
        enc.pointee.ch_layout = .defaultLayout(channels: 1)
        enc.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
        if codec == .aac || codec == .mp3 { enc.pointee.bit_rate = Self.bitRate }
        if Int32(output.pointer.pointee.oformat.pointee.flags) & AVFMT_GLOBALHEADER != 0 {
            enc.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        }
        try FFmpegResult.check(avcodec_open2(enc, encoder, nil), "avcodec_open2(\(encoderName))", path: path)
        try FFmpegResult.check(avcodec_parameters_from_context(stream.pointee.codecpar, enc), "avcodec_parameters_from_context", path: path)
        stream.pointee.time_base = enc.pointee.time_base

        try FFmpegResult.check(avio_open(&output.pointer.pointee.pb, path, AVIO_FLAG_WRITE), "avio_open", path: path)
        var options: OpaquePointer?
        if format == .m4a { av_dict_set(&options, "movflags", "+faststart", 0) }
        if format == .mp3 { av_dict_set(&options, "id3v2_version", "0", 0) }
        defer { av_dict_free(&options) }
        try FFmpegResult.check(avformat_write_header(output.pointer, &options), "avformat_write_header", path: path)

        var mono = AVChannelLayout.defaultLayout(channels: 1)
        var target = AVChannelLayout.defaultLayout(channels: 1)
        let converter = try ResamplerHandle(
            from: &mono, format: AV_SAMPLE_FMT_FLT, rate: Int32(sampleRate),
            to: &target, format: enc.pointee.sample_fmt, rate: Int32(sampleRate), path: path)
        let frame = try FrameHandle(path: path)
        let packet = try PacketHandle(path: path)
        let frameSize = enc.pointee.frame_size > 0 ? Int(enc.pointee.frame_size) : 4096
        if let expected = codec.paddedFrameLength {
            precondition(Int(enc.pointee.frame_size) == expected, "\(encoderName) frames are \(enc.pointee.frame_size) samples, planned as \(expected)")
        }
        let padsLastFrame = enc.pointee.frame_size > 0
            && Int32(encoder.pointee.capabilities) & AV_CODEC_CAP_SMALL_LAST_FRAME == 0
            && Int32(encoder.pointee.capabilities) & AV_CODEC_CAP_VARIABLE_FRAME_SIZE == 0

        var offset = 0
        while offset < samples.count {
            let count = min(frameSize, samples.count - offset)
            let f = frame.pointer
            f.pointee.nb_samples = Int32(padsLastFrame ? frameSize : count)
            f.pointee.format = enc.pointee.sample_fmt.rawValue
            f.pointee.sample_rate = Int32(sampleRate)
            f.pointee.ch_layout = .defaultLayout(channels: 1)
            f.pointee.pts = Int64(offset)
            try FFmpegResult.check(av_frame_get_buffer(f, 0), "av_frame_get_buffer", path: path)
            if padsLastFrame && count < frameSize {
                av_samples_set_silence(f.pointee.extended_data, 0, Int32(frameSize), 1, enc.pointee.sample_fmt)
            }
            let converted = samples[offset..<offset + count].withUnsafeBytes { bytes -> Int32 in
                var source: UnsafePointer<UInt8>? = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
                return withUnsafeMutablePointer(to: &source) { sources in
                    swr_convert(converter.pointer, f.pointee.extended_data, Int32(count), sources, Int32(count))
                }
            }
            try FFmpegResult.check(converted, "swr_convert", path: path)
            try FFmpegResult.check(avcodec_send_frame(enc, f), "avcodec_send_frame", path: path)
            av_frame_unref(f)
            try drain(enc, into: output, stream: stream, packet: packet, path: path)
            offset += count
        }
        try FFmpegResult.check(avcodec_send_frame(enc, nil), "avcodec_send_frame", path: path)
        try drain(enc, into: output, stream: stream, packet: packet, path: path)
        try FFmpegResult.check(av_write_trailer(output.pointer), "av_write_trailer", path: path)
        try FFmpegResult.check(avio_closep(&output.pointer.pointee.pb), "avio_closep", path: path)
    }

    private func drain(_ enc: UnsafeMutablePointer<AVCodecContext>, into output: OutputFormatHandle,
                       stream: UnsafeMutablePointer<AVStream>, packet: PacketHandle, path: String) throws {
        while true {
            let rc = avcodec_receive_packet(enc, packet.pointer)
            if rc == FFmpegResult.again || rc == FFmpegResult.eof { return }
            try FFmpegResult.check(rc, "avcodec_receive_packet", path: path)
            av_packet_rescale_ts(packet.pointer, enc.pointee.time_base, stream.pointee.time_base)
            packet.pointer.pointee.stream_index = stream.pointee.index
            try FFmpegResult.check(av_interleaved_write_frame(output.pointer, packet.pointer), "av_interleaved_write_frame", path: path)
        }
    }

    /// The encoder's own favourite among the formats it takes: float first, then 16-bit.
    /// `sample_fmts` is deprecated from FFmpeg 7.1: this is the one place that reads it.
    private static func preferredSampleFormat(of encoder: UnsafePointer<AVCodec>) -> AVSampleFormat {
        var supported: [AVSampleFormat] = []
        if var cursor = encoder.pointee.sample_fmts {
            while cursor.pointee != AV_SAMPLE_FMT_NONE { supported.append(cursor.pointee); cursor += 1 }
        }
        for preferred in [AV_SAMPLE_FMT_FLTP, AV_SAMPLE_FMT_FLT, AV_SAMPLE_FMT_S16, AV_SAMPLE_FMT_S16P] where supported.contains(preferred) {
            return preferred
        }
        return supported.first ?? AV_SAMPLE_FMT_S16
    }
}
