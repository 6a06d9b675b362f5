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
/// The corresponding C functions are `snd_pcm_open`, `snd_pcm_set_params`, `snd_pcm_writei`,
/// `snd_pcm_recover`, `snd_pcm_drain` and `snd_pcm_close`.
package final class AlsaPlayback: PlaybackSink {
    package let device: String
    package let sampleRate: Int
    private var pcm: OpaquePointer?
    private let converter: ResamplerHandle

    package init(device: String, sampleRate: Int) throws {
        calsa_silence_errors()
        self.device = device
        self.sampleRate = sampleRate
        var rc = snd_pcm_open(&pcm, device, SND_PCM_STREAM_PLAYBACK, 0)
        guard rc >= 0 else { throw Self.error(device, "snd_pcm_open", rc) }
        // 16-bit interleaved mono, ALSA's own resampling allowed, 100 ms latency.
        rc = snd_pcm_set_params(pcm, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 1, UInt32(sampleRate), 1, 100_000)
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
        while offset < pcm16.count {
            let written = pcm16[offset...].withUnsafeBufferPointer { buffer in
                snd_pcm_writei(pcm, buffer.baseAddress, snd_pcm_uframes_t(buffer.count))
            }
            if written < 0 {
                // Underruns and suspends are recovered; anything else is the device failing.
                let recovered = snd_pcm_recover(pcm, Int32(written), 1)
                guard recovered >= 0 else { throw Self.error(device, "snd_pcm_writei", Int32(written)) }
                continue
            }
            offset += Int(written)
        }
    }

    package func drain() { snd_pcm_drain(pcm) }

    static func error(_ device: String, _ function: String, _ code: Int32) -> AudioError {
        .device(name: device, function: function, code: code, message: String(cString: snd_strerror(code)))
    }
}
