internal import CSndFile
import Foundation

/// A recording being written as it arrives: a 16-bit WAV through libsndfile, its header kept
/// current after every write (`SFC_SET_UPDATE_HEADER_AUTO`), so that Ctrl-C, SIGTERM or even
/// SIGKILL leave a valid file holding everything captured until then. Closed in deinit.
package final class TakeWriter {
    package let path: String
    package let sampleRate: Int
    package let channels: Int
    /// Frames written so far.
    package private(set) var frames = 0
    private var file: OpaquePointer?

    /// Creates (truncating) the take file. The corresponding C functions are `sf_open` and `sf_command`.
    package init(path: String, sampleRate: Int, channels: Int) throws {
        self.path = path
        self.sampleRate = sampleRate
        self.channels = channels
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = Int32(channels)
        info.format = Int32(SF_FORMAT_WAV) | Int32(SF_FORMAT_PCM_16)
        file = sf_open(path, Int32(SFM_WRITE), &info)
        guard file != nil else {
            throw AudioError.cannotWrite(path: path, reason: String(cString: sf_strerror(nil)))
        }
        sf_command(file, Int32(SFC_SET_UPDATE_HEADER_AUTO), nil, Int32(SF_TRUE))
    }

    deinit { if file != nil { sf_close(file) } }

    /// Appends interleaved 16-bit frames. The corresponding C function is `sf_writef_short`.
    package func append(_ samples: [Int16]) throws {
        precondition(samples.count % channels == 0, "a partial frame")
        guard !samples.isEmpty else { return }
        let count = samples.count / channels
        let written = samples.withUnsafeBufferPointer { sf_writef_short(file, $0.baseAddress, sf_count_t(count)) }
        guard written == count else {
            throw AudioError.cannotWrite(path: path, reason: String(cString: sf_strerror(file)))
        }
        frames += count
    }

    /// Flushes and closes the file.
    package func close() {
        if file != nil { sf_close(file) }
        file = nil
    }

    package var duration: Double { Double(frames) / Double(sampleRate) }
}
