internal import CALSA
internal import CFFmpeg
import Foundation

/// Where played audio goes: an ALSA device, or a test's recorder.
package protocol PlaybackSink: AnyObject {
    /// Plays mono float samples at the sink's rate, blocking until the device took them.
    func play(_ samples: ArraySlice<Float>) throws
    /// Waits until everything written has been played.
    func drain()
}

/// An ALSA playback device (`default`, `hw:0`, or any PCM the configuration defines), opened for
/// 16-bit mono at one rate. The PCM is closed in deinit.
///
/// A ring must go on when the machine is busy. The device holds half a second of audio, so a
/// process held up for less than that is not heard at all. A device that takes nothing through
/// two waits of `stallLimit` is restarted: ALSA's PulseAudio plugin, after the server ran dry,
/// can otherwise wait for its next timing update (up to 1.3 s later) before it plays again.
///
/// The corresponding C functions are `snd_pcm_open`, `snd_pcm_set_params`, `snd_pcm_writei`,
/// `snd_pcm_wait`, `snd_pcm_recover`, `snd_pcm_drop`, `snd_pcm_prepare`, `snd_pcm_drain` and
/// `snd_pcm_close`.
package final class AlsaPlayback: PlaybackSink {
    /// How much audio the device holds ahead of what is heard, in microseconds.
    static let latency: UInt32 = 1_000_000
    /// The longest wait for room in the device, in milliseconds (two in vain restart it).
    static let stallLimit: Int32 = 400
    package let device: String
    package let sampleRate: Int
    private var pcm: OpaquePointer?
    private let converter: ResamplerHandle

    package init(device: String, sampleRate: Int) throws {
        calsa_silence_errors()
        self.device = device
        self.sampleRate = sampleRate
        // Not blocking: a busy device is refused at once, and a write that waits is bounded.
        var rc = snd_pcm_open(&pcm, device, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK)
        guard rc >= 0 else { throw Self.error(device, "snd_pcm_open", rc) }
        // 16-bit interleaved mono, ALSA's own resampling allowed.
        rc = snd_pcm_set_params(pcm, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 1, UInt32(sampleRate), 1, Self.latency)
        guard rc >= 0 else {
            snd_pcm_close(pcm)
            pcm = nil
            throw Self.error(device, "snd_pcm_set_params", rc)
        }
        var mono = AVChannelLayout.defaultLayout(channels: 1)
        var monoOut = AVChannelLayout.defaultLayout(channels: 1)
        do {
            converter = try ResamplerHandle(
                from: &mono, format: AV_SAMPLE_FMT_FLT, rate: Int32(sampleRate),
                to: &monoOut, format: AV_SAMPLE_FMT_S16, rate: Int32(sampleRate), path: device)
        } catch {
            snd_pcm_close(pcm)
            pcm = nil
            throw error
        }
    }

    deinit { if pcm != nil { snd_pcm_close(pcm) } }

    package func play(_ samples: ArraySlice<Float>) throws {
        guard !samples.isEmpty else { return }
        var pcm16 = [Int16](repeating: 0, count: samples.count)
        let converted = samples.withUnsafeBytes { input -> Int32 in
            pcm16.withUnsafeMutableBytes { output -> Int32 in
                var source: UnsafePointer<UInt8>? = input.baseAddress!.assumingMemoryBound(to: UInt8.self)
                var destination: UnsafeMutablePointer<UInt8>? = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
                return withUnsafeMutablePointer(to: &source) { sources in
                    withUnsafeMutablePointer(to: &destination) { destinations in
                        cffmpeg_swr_convert()(converter.pointer, destinations, Int32(samples.count), sources, Int32(samples.count))
                    }
                }
            }
        }
        try FFmpegResult.check(converted, "swr_convert", path: device)
        var offset = 0
        var waitsInVain = 0
        while offset < pcm16.count {
            let written = pcm16[offset...].withUnsafeBufferPointer { buffer in
                snd_pcm_writei(pcm, buffer.baseAddress, snd_pcm_uframes_t(buffer.count))
            }
            if written == -Int(EAGAIN) {
                // One wait that timed out proves nothing: the process itself may have been held
                // up through it, and the plugin's thread has yet to catch up. Two in a row do.
                waitsInVain = try waitForRoom() ? 0 : waitsInVain + 1
                if waitsInVain == 2 {
                    try restart()
                    waitsInVain = 0
                }
                continue
            }
            waitsInVain = 0
            if written < 0 {
                try recover(Int32(written), "snd_pcm_writei")
                continue
            }
            offset += Int(written)
        }
    }

    /// Waits up to `stallLimit` for the device to have room: false when the time ran out.
    private func waitForRoom() throws -> Bool {
        let ready = snd_pcm_wait(pcm, Self.stallLimit)
        if ready < 0 { try recover(ready, "snd_pcm_wait") }
        return ready != 0
    }

    /// Drops what a stuck device holds and starts it again (it plays once it has been written to).
    private func restart() throws {
        snd_pcm_drop(pcm)
        let prepared = snd_pcm_prepare(pcm)
        guard prepared >= 0 else { throw Self.error(device, "snd_pcm_prepare", prepared) }
    }

    /// Underruns and suspends are recovered; anything else is the device failing.
    private func recover(_ code: Int32, _ function: String) throws {
        guard snd_pcm_recover(pcm, code, 1) >= 0 else { throw Self.error(device, function, code) }
    }

    package func drain() {
        snd_pcm_nonblock(pcm, 0)
        snd_pcm_drain(pcm)
    }

    static func error(_ device: String, _ function: String, _ code: Int32) -> AudioError {
        .device(name: device, function: function, code: code, message: String(cString: snd_strerror(code)))
    }
}
