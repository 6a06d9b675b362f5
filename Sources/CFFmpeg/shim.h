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

/// FFmpeg logs to stderr by default; VoiceAlarm reports problems through its own errors.
static inline void cffmpeg_quiet_logging(void) { av_log_set_level(AV_LOG_QUIET); }

#endif
