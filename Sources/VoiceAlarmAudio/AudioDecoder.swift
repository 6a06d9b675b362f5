internal import CFFmpeg
import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles

/// Reads any file FFmpeg understands as mono 32-bit float samples at one chosen rate,
/// decoding only as far as it is asked to.
///
/// ```swift
/// let decoder = try AudioDecoder(path: "take.flac", sampleRate: 44_100)
/// while let chunk = try decoder.read(upTo: 4096) { … }
/// ```
/// Resampling and downmixing are done by libswresample; a stream whose channel layout is
/// unspecified (a WAV without a channel mask) is given FFmpeg's default layout for its count.
///
/// A file that ends in the middle of a frame, or before its declared length, is refused
/// (`AudioError.truncated`) unless the decoder was made with `damage: .keepWhatDecodes` (a take;
/// `clip import --salvage`): then it ends at the last whole frame and `cutOff` says what was
/// left out. The partial frame is never handed to the codec: the MP4 demuxer delivers it
/// flagged corrupt (the AAC decoder would refuse it), the Matroska demuxer drops it, saying so
/// only in its log (`cffmpeg_count_demuxer_errors`).
package final class AudioDecoder {
    /// What to do with a file whose end is cut off or damaged.
    package enum Damage: Sendable, Equatable {
        /// Refuse it: a file imported as it is must be whole.
        case refuse
        /// Keep what decodes, up to the last whole frame before the damage, and say what was
        /// cut (`cutOff`): a take, which must never be lost for its last frame.
        case keepWhatDecodes
    }

    /// The file being read, as given.
    package let path: String
    /// The rate samples are delivered at.
    package let sampleRate: Int
    /// FFmpeg's demuxer name (e.g. `wav`, `mov,mp4,m4a,3gp,3g2,mj2`).
    package let container: String
    /// FFmpeg's codec name (e.g. `pcm_s16le`, `aac`).
    package let codec: String
    /// The stream's own sample rate and channel count.
    package let sourceSampleRate: Int
    package let sourceChannels: Int
    /// The length the container's header declares, in seconds, when it declares one
    /// (not a guess from the bit rate).
    package let declaredDuration: Double?
    /// Samples delivered so far.
    package private(set) var samplesRead = 0
    /// What was left out at the end, once the stream is exhausted (`damage: .keepWhatDecodes`).
    package private(set) var cutOff: CutOff?
    /// The policy for a cut or damaged end.
    package let damage: Damage

    private let input: InputFormatHandle
    private let decoder: CodecContextHandle
    private let streamIndex: Int32
    private let packet: PacketHandle
    private let frame: FrameHandle
    private var resampler: ResamplerHandle?
    private var resamplerInput: (format: Int32, rate: Int32, channels: Int32)?
    private var pending: [Float] = []
    private var pendingStart = 0
    private var demuxerFinished = false
    private var decoderFinished = false
    private let dcBlocker: DCBlocker?
    /// The stream's end as the demuxer found it, when it was not a clean one; reported once the
    /// decoder has handed over every whole frame.
    private var damagedEnd: (cause: CutOff.Cause, seconds: Double?)?
    /// The length of the last packet of our stream read, in seconds (0 when unknown).
    private var lastPacketSeconds = 0.0
    /// The demuxer's error count (`cffmpeg_demuxer_errors`) when that packet was read.
    private var demuxerErrorsAtLastPacket = 0

    /// Opens `path` and prepares to deliver mono float samples at `sampleRate`, or at the
    /// stream's own rate when `sampleRate` is nil (to count samples without resampling).
    /// `removeDC` takes a recording's DC offset out as it is decoded (`DCBlocker`): for
    /// recordings a ringtone is made from, never for a file being checked as it is. `damage`
    /// says what a cut or damaged end does: refused (the default), or kept up to it.
    /// - Throws: `AudioError` when the file is missing, a directory, a FIFO or a device, empty,
    ///   unreadable, not a media file, holds no audio stream, or declares a sample rate or
    ///   channel count outside `InputLimits` (checked from the header, before decoding).
    package init(path: String, sampleRate requestedRate: Int?, removeDC: Bool = false, damage: Damage = .refuse) throws {
        try FFmpegResult.ready(path: path)
        precondition((requestedRate ?? 1) > 0, "sample rate must be positive")
        self.path = path
        self.damage = damage
        try Self.checkReadableFile(path)

        input = try InputFormatHandle(path: path)
        let format = input.pointer!
        container = String(cString: format.pointee.iformat.pointee.name)
        var rc = cffmpeg_avformat_find_stream_info()(format, nil)
        guard rc >= 0 else { throw AudioError.notAudio(path: path, reason: FFmpegResult.message(rc)) }
        var codec: UnsafePointer<AVCodec>?
        rc = cffmpeg_av_find_best_stream()(format, AVMEDIA_TYPE_AUDIO, -1, -1, &codec, 0)
        guard rc >= 0, let codec else { throw AudioError.noAudioStream(path: path) }
        streamIndex = rc
        let stream = format.pointee.streams[Int(rc)]!
        for i in 0..<Int(format.pointee.nb_streams) where Int32(i) != rc {
            format.pointee.streams[i]!.pointee.discard = AVDISCARD_ALL
        }

        // Bounds first, from the header alone: a lying header must not drive a decode.
        try Self.checkBounds(
            path, rate: stream.pointee.codecpar.pointee.sample_rate,
            channels: stream.pointee.codecpar.pointee.ch_layout.nb_channels)

        decoder = try CodecContextHandle(codec: codec, path: path)
        let context = decoder.pointer
        try FFmpegResult.check(cffmpeg_avcodec_parameters_to_context()(context, stream.pointee.codecpar), "avcodec_parameters_to_context", path: path)
        context.pointee.pkt_timebase = stream.pointee.time_base
        rc = cffmpeg_avcodec_open2()(context, codec, nil)
        self.codec = cffmpeg_avcodec_get_name()(codec.pointee.id).map { String(cString: $0) } ?? "unknown"
        guard rc >= 0 else {
            throw AudioError.notAudio(path: path, reason: "cannot open the \(self.codec) decoder: \(FFmpegResult.message(rc))")
        }
        sourceSampleRate = Int(context.pointee.sample_rate)
        sourceChannels = Int(context.pointee.ch_layout.nb_channels)
        guard sourceSampleRate > 0, sourceChannels > 0 else {
            throw AudioError.notAudio(path: path, reason: "the audio stream has no sample rate or channels")
        }
        try Self.checkBounds(path, rate: context.pointee.sample_rate, channels: context.pointee.ch_layout.nb_channels)
        sampleRate = requestedRate ?? sourceSampleRate
        if format.pointee.duration_estimation_method == AVFMT_DURATION_FROM_BITRATE {
            declaredDuration = nil
        } else if stream.pointee.duration != cffmpeg_nopts_value(), stream.pointee.duration > 0 {
            declaredDuration = Double(stream.pointee.duration) * av_q2d(stream.pointee.time_base)
        } else if format.pointee.duration != cffmpeg_nopts_value(), format.pointee.duration > 0 {
            declaredDuration = Double(format.pointee.duration) / Double(AV_TIME_BASE)
        } else {
            declaredDuration = nil
        }
        packet = try PacketHandle(path: path)
        frame = try FrameHandle(path: path)
        dcBlocker = removeDC ? try DCBlocker(sampleRate: sampleRate, path: path) : nil
    }

    /// Delivers up to `maxSamples` further samples, or nil once the stream is exhausted.
    /// - Throws: `AudioError.corrupt` when the stream cannot be decoded at some point,
    ///   `AudioError.truncated` when it ends in the middle of a frame or well short of the length
    ///   its header declares; neither with `damage: .keepWhatDecodes`, which ends the stream at
    ///   the last whole frame and sets `cutOff`.
    package func read(upTo maxSamples: Int) throws -> [Float]? {
        precondition(maxSamples > 0, "read at least one sample")
        while pending.count - pendingStart < maxSamples, !decoderFinished {
            do { try decodeMore() } catch let error as AudioError where damage == .keepWhatDecodes {
                try keepWhatDecoded(after: error)
            }
        }
        let available = pending.count - pendingStart
        guard available > 0 else {
            if cutOff == nil, let declaredDuration, position + Self.truncationTolerance < declaredDuration {
                guard damage == .keepWhatDecodes else {
                    throw AudioError.truncated(path: path, decoded: position, declared: declaredDuration)
                }
                cutOff = CutOff(kept: position, seconds: declaredDuration - position, cause: .shorterThanDeclared)
            }
            return nil
        }
        let count = min(available, maxSamples)
        let chunk = Array(pending[pendingStart..<pendingStart + count])
        pendingStart += count
        if pendingStart >= 1 << 16 {
            pending.removeFirst(pendingStart)
            pendingStart = 0
        }
        samplesRead += count
        return chunk
    }

    /// Reads everything that is left.
    package func readAll() throws -> [Float] {
        var all: [Float] = []
        while let chunk = try read(upTo: 1 << 16) { all.append(contentsOf: chunk) }
        return all
    }

    /// Seconds decoded so far, for messages about where a file went wrong.
    private var position: Double { Double(samplesRead + pending.count - pendingStart) / Double(sampleRate) }

    /// Moves one step: a frame decoded, a packet sent, or the end reached.
    private func decodeMore() throws {
        let rc = cffmpeg_avcodec_receive_frame()(decoder.pointer, frame.pointer)
        if rc >= 0 {
            defer { cffmpeg_av_frame_unref()(frame.pointer) }
            try convert(frame.pointer)
            return
        }
        if rc == FFmpegResult.eof {
            try finishStream()
            if let damagedEnd {
                // Every whole frame is out: the end the demuxer found is reported where it is.
                guard damage == .keepWhatDecodes else { throw AudioError.truncated(path: path, decoded: position, declared: nil) }
                cutOff = CutOff(kept: position, seconds: damagedEnd.seconds, cause: damagedEnd.cause)
            }
            return
        }
        guard rc == FFmpegResult.again else { throw failure(rc) }
        precondition(!demuxerFinished, "decoder asked for input after it was drained")
        let readCode = cffmpeg_av_read_frame()(input.pointer, packet.pointer)
        if readCode == FFmpegResult.eof {
            if Int(cffmpeg_demuxer_errors(input.pointer)) > demuxerErrorsAtLastPacket {
                // Matroska ends a file cut inside a block as if it were whole, having only logged
                // "File ended prematurely": the block is lost; browsers' frames all last the same.
                damagedEnd = (.partialFrame, lastPacketSeconds > 0 ? lastPacketSeconds : nil)
            }
            endOfInput()
            return
        }
        guard readCode >= 0 else { throw failure(readCode) }
        defer { cffmpeg_av_packet_unref()(packet.pointer) }
        guard packet.pointer.pointee.stream_index == streamIndex else { return }
        let seconds = packetSeconds
        if packet.pointer.pointee.flags & AV_PKT_FLAG_CORRUPT != 0, atEndOfFile {
            // The MP4 demuxer hands over the frame the file ends in the middle of, short and
            // flagged corrupt: it is the cut, never audio (AAC refuses it as invalid data).
            damagedEnd = (.partialFrame, seconds > 0 ? seconds : lastPacketSeconds > 0 ? lastPacketSeconds : nil)
            endOfInput()
            return
        }
        lastPacketSeconds = seconds
        demuxerErrorsAtLastPacket = Int(cffmpeg_demuxer_errors(input.pointer))
        let sendCode = cffmpeg_avcodec_send_packet()(decoder.pointer, packet.pointer)
        if sendCode < 0, sendCode != FFmpegResult.again { throw failure(sendCode) }
    }

    /// No more input: the decoder is told to hand over what it holds.
    private func endOfInput() {
        demuxerFinished = true
        cffmpeg_avcodec_send_packet()(decoder.pointer, nil)
    }

    /// The decoder has handed over everything: the resampler's and the DC blocker's tails follow.
    private func finishStream() throws {
        try flushResampler()
        if let dcBlocker { pending += try dcBlocker.finish() }
        decoderFinished = true
    }

    /// Ends the stream where decoding failed, keeping what decoded before (`.keepWhatDecodes`).
    /// Errors that are not the file's own (the machine's) are thrown again.
    private func keepWhatDecoded(after error: AudioError) throws {
        let cause: CutOff.Cause
        switch error {
        case .truncated(_, _, let declared): cause = declared == nil ? .partialFrame : .shorterThanDeclared
        case .corrupt: cause = .damaged
        default: throw error
        }
        let kept = position
        let seconds =
            cause == .partialFrame
            ? (lastPacketSeconds > 0 ? lastPacketSeconds : nil)
            : declaredDuration.flatMap { $0 > kept ? $0 - kept : nil }
        demuxerFinished = true
        try finishStream()
        cutOff = CutOff(kept: position, seconds: seconds, cause: cause)
    }

    /// The current packet's length in seconds, or 0 when the container does not say.
    private var packetSeconds: Double {
        let duration = packet.pointer.pointee.duration
        guard duration > 0 else { return 0 }
        return Double(duration) * av_q2d(input.pointer!.pointee.streams[Int(streamIndex)]!.pointee.time_base)
    }

    /// Whether reading has reached the file's last bytes: where a cut file fails.
    private var atEndOfFile: Bool {
        guard let io = input.pointer?.pointee.pb else { return false }
        let size = cffmpeg_avio_size()(io)
        return cffmpeg_avio_feof()(io) != 0 || (size > 0 && cffmpeg_avio_seek()(io, 0, SEEK_CUR) >= size - 4096)
    }

    /// Refuses a stream outside `InputLimits` (a rate or channel count of 0 is left to the
    /// checks that follow, which call it no audio).
    private static func checkBounds(_ path: String, rate: Int32, channels: Int32) throws {
        guard rate > 0, channels > 0 else { return }
        if let problem = InputLimits.streamProblem(sampleRate: Int(rate), channels: Int(channels)) {
            throw AudioError.unsupportedStream(path: path, reason: problem)
        }
    }

    /// How far short of its declared length a stream may end before it counts as cut off
    /// (container estimates and codec priming differ by a few frames).
    static let truncationTolerance = 0.5

    /// A decoding or reading failure: a file cut short when it fails at the end of its bytes,
    /// otherwise corrupt where it failed.
    private func failure(_ code: Int32) -> AudioError {
        if atEndOfFile {
            let declared = declaredDuration.flatMap { $0 > position + Self.truncationTolerance ? $0 : nil }
            return .truncated(path: path, decoded: position, declared: declared)
        }
        return .corrupt(path: path, atSeconds: position, reason: FFmpegResult.message(code))
    }

    /// Resamples and downmixes one decoded frame into `pending`, rebuilding the resampler if
    /// the stream changed its format mid-way.
    private func convert(_ frame: UnsafeMutablePointer<AVFrame>) throws {
        let shape = (format: frame.pointee.format, rate: frame.pointee.sample_rate, channels: frame.pointee.ch_layout.nb_channels)
        if resamplerInput.map({ $0 != shape }) ?? true {
            // A stream may change its format mid-way; the new one is held to the same bounds.
            try Self.checkBounds(path, rate: shape.rate, channels: shape.channels)
            try flushResampler()
            var inLayout = AVChannelLayout()
            if frame.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC {
                inLayout = .defaultLayout(channels: shape.channels)
            } else {
                try FFmpegResult.check(cffmpeg_av_channel_layout_copy()(&inLayout, &frame.pointee.ch_layout), "av_channel_layout_copy", path: path)
            }
            defer { cffmpeg_av_channel_layout_uninit()(&inLayout) }
            var mono = AVChannelLayout.defaultLayout(channels: 1)
            defer { cffmpeg_av_channel_layout_uninit()(&mono) }
            do {
                resampler = try ResamplerHandle(
                    from: &inLayout, format: AVSampleFormat(shape.format), rate: shape.rate,
                    to: &mono, format: AV_SAMPLE_FMT_FLT, rate: Int32(sampleRate), path: path)
            } catch AudioError.ffmpeg(_, let function, let code, let message) where code == -EINVAL {
                // The stream's own format is at fault (a damaged header), not the machine.
                throw AudioError.unsupportedStream(path: path, reason: "its sample format cannot be converted (\(function): \(message))")
            }
            resamplerInput = shape
        }
        try appendConverted(input: frame.pointee.extended_data, count: frame.pointee.nb_samples, channels: Int(shape.channels))
    }

    private func flushResampler() throws {
        guard resampler != nil else { return }
        try appendConverted(input: nil, count: 0, channels: 0)
    }

    /// The corresponding C function is `swr_convert`.
    private func appendConverted(input: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?, count: Int32, channels: Int) throws {
        guard let swr = resampler?.pointer else { return }
        let capacity = Int(cffmpeg_swr_get_out_samples()(swr, count))
        guard capacity > 0 else { return }
        let oldCount = pending.count
        pending.append(contentsOf: repeatElement(0, count: capacity))
        let produced = pending.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var out: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(buffer.baseAddress! + oldCount).assumingMemoryBound(to: UInt8.self)
            return withUnsafeMutablePointer(to: &out) { outs in
                guard let input else { return cffmpeg_swr_convert()(swr, outs, Int32(capacity), nil, 0) }
                return input.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: max(1, channels)) { ins in
                    cffmpeg_swr_convert()(swr, outs, Int32(capacity), ins, count)
                }
            }
        }
        pending.removeLast(capacity - max(0, Int(produced)))
        try FFmpegResult.check(produced, "swr_convert", path: path)
        if let dcBlocker, pending.count > oldCount {
            // The slice handed over is gone before the array changes, so `pending` is changed
            // in place: held across the change, it made every frame copy the whole array.
            let filtered = try dcBlocker.push(pending[oldCount...])
            pending.replaceSubrange(oldCount..., with: filtered)
        }
    }

    /// Tells apart the failures a user can fix (missing, a directory, a FIFO or a device,
    /// unreadable, empty) before FFmpeg sees the file. Only `stat` and `access` are asked:
    /// nothing is opened, so a FIFO is refused without blocking.
    /// - Throws: `AudioError` saying which of them it is.
    package static func checkReadableFile(_ path: String) throws {
        let status: FileSystem.Status
        do { status = try FileSystem.status(of: path) } catch {
            if error.code == ENOENT || error.code == ENOTDIR { throw AudioError.fileNotFound(path: path) }
            throw AudioError.unreadable(path: path, reason: error.reason)
        }
        switch status.kind {
        case .regular: break
        case .directory: throw AudioError.isDirectory(path: path)
        default: throw AudioError.notRegularFile(path: path, kind: status.kind.description)
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw AudioError.unreadable(path: path, reason: "permission denied")
        }
        if status.size == 0 { throw AudioError.emptyFile(path: path) }
    }
}
