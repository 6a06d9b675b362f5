internal import CALSA
import Foundation

/// Where a take's audio comes from: an ALSA device, or a test's stand-in that can fail on cue.
package protocol CaptureSource: AnyObject {
    /// The rate the device actually runs at (the nearest it has to the one asked for).
    var sampleRate: Int { get }
    var channels: Int { get }
    /// Reads up to `frames` interleaved 16-bit frames, blocking until some arrive.
    func read(frames: Int) throws -> CaptureChunk
}

/// What one read brought.
package enum CaptureChunk: Equatable, Sendable {
    case samples([Int16])
    /// The device overran (audio was lost) and was recovered; reading goes on.
    case overrun
}

/// An ALSA capture device opened for 16-bit interleaved frames. Closed in deinit.
///
/// The corresponding C functions are `snd_pcm_open` (or `snd_pcm_open_lconf` with a
/// configuration given as text, as tests do), the `snd_pcm_hw_params_*` family (with
/// `set_rate_near`), `snd_pcm_readi` and `snd_pcm_recover`.
package final class AlsaCapture: CaptureSource {
    package let device: String
    package private(set) var sampleRate: Int
    package let channels: Int
    private var pcm: OpaquePointer?
    private var configuration: OpaquePointer?

    /// Opens `device` for capture at the rate nearest `sampleRate`.
    /// - Parameter configurationText: an ALSA configuration that defines `device` (tests);
    ///   nil to use the system's.
    /// - Throws: `AudioError.device` when the device does not exist, is busy, or cannot capture
    ///   anything near the asked rate or channel count.
    package init(device: String, sampleRate: Int, channels: Int, configurationText: String? = nil) throws {
        calsa_silence_errors()
        self.device = device
        self.channels = channels
        self.sampleRate = sampleRate
        var rc: Int32
        if let configurationText {
            configuration = try Self.load(configurationText, device: device)
            rc = snd_pcm_open_lconf(&pcm, device, SND_PCM_STREAM_CAPTURE, 0, configuration)
        } else {
            rc = snd_pcm_open(&pcm, device, SND_PCM_STREAM_CAPTURE, 0)
        }
        guard rc >= 0 else {
            pcm = nil
            throw Self.error(device, "snd_pcm_open", rc)
        }
        var params: OpaquePointer?
        snd_pcm_hw_params_malloc(&params)
        defer { snd_pcm_hw_params_free(params) }
        var rate = UInt32(sampleRate)
        var direction: Int32 = 0
        for (function, code) in [
            ("snd_pcm_hw_params_any", snd_pcm_hw_params_any(pcm, params)),
            ("snd_pcm_hw_params_set_access", snd_pcm_hw_params_set_access(pcm, params, SND_PCM_ACCESS_RW_INTERLEAVED)),
            ("snd_pcm_hw_params_set_format", snd_pcm_hw_params_set_format(pcm, params, SND_PCM_FORMAT_S16_LE)),
            ("snd_pcm_hw_params_set_channels", snd_pcm_hw_params_set_channels(pcm, params, UInt32(channels))),
            ("snd_pcm_hw_params_set_rate_near", snd_pcm_hw_params_set_rate_near(pcm, params, &rate, &direction)),
        ] where code < 0 {
            throw Self.error(device, function, code)
        }
        // The nearest rate is used and reported; one more than a factor of two away is not "near".
        guard Double(rate) >= Double(sampleRate) / 2, Double(rate) <= Double(sampleRate) * 2 else {
            throw AudioError.device(
                name: device, function: "snd_pcm_hw_params_set_rate_near", code: -22,
                message: "the device cannot capture near \(sampleRate) Hz (nearest \(rate) Hz)")
        }
        rc = snd_pcm_hw_params(pcm, params)
        guard rc >= 0 else { throw Self.error(device, "snd_pcm_hw_params", rc) }
        self.sampleRate = Int(rate)
    }

    deinit {
        if pcm != nil { snd_pcm_close(pcm) }
        if configuration != nil { snd_config_delete(configuration) }
    }

    package func read(frames: Int) throws -> CaptureChunk {
        var buffer = [Int16](repeating: 0, count: frames * channels)
        let got = buffer.withUnsafeMutableBufferPointer { snd_pcm_readi(pcm, $0.baseAddress, snd_pcm_uframes_t(frames)) }
        if got < 0 {
            let recovered = snd_pcm_recover(pcm, Int32(got), 1)
            guard recovered >= 0 else { throw Self.error(device, "snd_pcm_readi", Int32(got)) }
            return got == -Int(EPIPE) ? .overrun : .samples([])
        }
        return .samples(Array(buffer.prefix(Int(got) * channels)))
    }

    private static func load(_ text: String, device: String) throws -> OpaquePointer? {
        var config: OpaquePointer?
        var input: OpaquePointer?
        guard snd_config_top(&config) >= 0 else { throw AudioError.device(name: device, function: "snd_config_top", code: -12, message: "out of memory") }
        let rc = text.withCString { snd_input_buffer_open(&input, $0, strlen($0)) }
        guard rc >= 0 else { snd_config_delete(config); throw error(device, "snd_input_buffer_open", rc) }
        defer { snd_input_close(input) }
        let loaded = snd_config_load(config, input)
        guard loaded >= 0 else { snd_config_delete(config); throw error(device, "snd_config_load", loaded) }
        return config
    }

    static func error(_ device: String, _ function: String, _ code: Int32) -> AudioError {
        .device(name: device, function: function, code: code, message: String(cString: snd_strerror(code)))
    }
}
