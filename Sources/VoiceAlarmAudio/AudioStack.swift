/// FFmpeg's format, codec and filter libraries, which `voicealarm` opens on first use rather
/// than at every start (see `CFFmpeg/shim.h`): every reader and writer here opens them itself.
package enum AudioStack {
    /// Opens them now, for work that is about to render many ringtones (a batch): a broken
    /// installation is then said once, before anything is written, and not once per ringtone.
    /// - Throws: `AudioError.ffmpeg` (function `dlopen`) naming `subject`, in the loader's words.
    package static func load(for subject: String) throws {
        try FFmpegResult.ready(path: subject)
    }
}
