// What Swift cannot import from FFmpeg's headers: function-like and
// struct-building macros. Every helper is prefixed `cffmpeg_` and says why it exists.
#ifndef CFFMPEG_SHIM_H
#define CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/opt.h>
#include <libavutil/samplefmt.h>
#include <libavutil/sha.h>
#include <libavutil/murmur3.h>
#include <libswresample/swresample.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>

/// AVERROR_EOF is built with FFERRTAG, a macro Swift cannot evaluate.
static inline int cffmpeg_error_eof(void) { return AVERROR_EOF; }
/// AVERROR(EAGAIN): "need more input" / "output not ready", a value, not a failure.
static inline int cffmpeg_error_again(void) { return AVERROR(EAGAIN); }
/// AVERROR(ENOMEM), for allocation failures reported as FFmpeg codes.
static inline int cffmpeg_error_nomem(void) { return AVERROR(ENOMEM); }
/// AV_NOPTS_VALUE is a cast macro.
static inline int64_t cffmpeg_nopts_value(void) { return AV_NOPTS_VALUE; }

/// Some damage a demuxer reports only in its log: Matroska's "File ended prematurely" (a WebM
/// cut inside a block, as a browser's recording stopped mid-write leaves it) is logged at
/// AV_LOG_ERROR, then reading ends exactly as at a clean end of file. This callback counts the
/// error-level messages of each demuxer in its AVFormatContext's `opaque` (user data FFmpeg
/// never reads), so the reader can tell the two ends apart; it prints nothing.
static void cffmpeg_count_demuxer_errors(void *context, int level, const char *format, va_list arguments) {
    (void)format;
    (void)arguments;
    if (level > AV_LOG_ERROR || context == NULL) return;
    const AVClass *class = *(const AVClass **)context;
    if (class != avformat_get_class()) return;
    AVFormatContext *format_context = context;
    format_context->opaque = (void *)((intptr_t)format_context->opaque + 1);
}

/// FFmpeg logs to stderr by default; VoiceAlarm reports problems through its own errors
/// (and counts the demuxers' errors, above).
static inline void cffmpeg_quiet_logging(void) {
    av_log_set_level(AV_LOG_QUIET);
    av_log_set_callback(cffmpeg_count_demuxer_errors);
}

/// How many error-level messages the demuxer of `context` has logged (see above).
static inline long cffmpeg_demuxer_errors(const AVFormatContext *context) { return (long)(intptr_t)context->opaque; }

#endif
