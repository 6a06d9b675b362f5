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
#include <libavutil/macros.h>
#include <string.h>

#include "../CLazyLoad/shim.h"

/// AVERROR_EOF is built with FFERRTAG, a macro Swift cannot evaluate.
static inline int cffmpeg_error_eof(void) { return AVERROR_EOF; }
/// AVERROR(EAGAIN): "need more input" / "output not ready", a value, not a failure.
static inline int cffmpeg_error_again(void) { return AVERROR(EAGAIN); }
/// AVERROR(ENOMEM), for allocation failures reported as FFmpeg codes.
static inline int cffmpeg_error_nomem(void) { return AVERROR(ENOMEM); }
/// AV_NOPTS_VALUE is a cast macro.
static inline int64_t cffmpeg_nopts_value(void) { return AV_NOPTS_VALUE; }


// FFmpeg's libraries bring some 170 shared libraries with them (video codecs, GPU drivers, X11),
// and loading them was most of a start of `voicealarm`: all five are opened on first use
// (CLazyLoad), the first time a recording is read, a ringtone written or a sound played.
// Swift asks `cffmpeg_load()` first, then calls `cffmpeg_avformat_open_input()(&context, …)`.

#define CFFMPEG_FORMAT 0
#define CFFMPEG_CODEC 1
#define CFFMPEG_FILTER 2
#define CFFMPEG_UTIL 3
#define CFFMPEG_RESAMPLE 4

/// Every function of the three libraries VoiceAlarm calls, with the library it is in.
#define CFFMPEG_LAZY_FUNCTIONS(X) \
    X(CFFMPEG_FORMAT, avformat_open_input) \
    X(CFFMPEG_FORMAT, avformat_close_input) \
    X(CFFMPEG_FORMAT, avformat_find_stream_info) \
    X(CFFMPEG_FORMAT, avformat_alloc_output_context2) \
    X(CFFMPEG_FORMAT, avformat_free_context) \
    X(CFFMPEG_FORMAT, avformat_new_stream) \
    X(CFFMPEG_FORMAT, avformat_write_header) \
    X(CFFMPEG_FORMAT, av_find_best_stream) \
    X(CFFMPEG_FORMAT, av_read_frame) \
    X(CFFMPEG_FORMAT, av_interleaved_write_frame) \
    X(CFFMPEG_FORMAT, av_write_trailer) \
    X(CFFMPEG_FORMAT, avio_open) \
    X(CFFMPEG_FORMAT, avio_closep) \
    X(CFFMPEG_FORMAT, avio_feof) \
    X(CFFMPEG_FORMAT, avio_size) \
    X(CFFMPEG_FORMAT, avio_seek) \
    X(CFFMPEG_CODEC, av_packet_alloc) \
    X(CFFMPEG_CODEC, av_packet_free) \
    X(CFFMPEG_CODEC, av_packet_unref) \
    X(CFFMPEG_CODEC, av_packet_rescale_ts) \
    X(CFFMPEG_CODEC, avcodec_alloc_context3) \
    X(CFFMPEG_CODEC, avcodec_free_context) \
    X(CFFMPEG_CODEC, avcodec_find_encoder_by_name) \
    X(CFFMPEG_CODEC, avcodec_get_name) \
    X(CFFMPEG_CODEC, avcodec_open2) \
    X(CFFMPEG_CODEC, avcodec_parameters_from_context) \
    X(CFFMPEG_CODEC, avcodec_parameters_to_context) \
    X(CFFMPEG_CODEC, avcodec_send_packet) \
    X(CFFMPEG_CODEC, avcodec_receive_frame) \
    X(CFFMPEG_CODEC, avcodec_send_frame) \
    X(CFFMPEG_CODEC, avcodec_receive_packet) \
    X(CFFMPEG_FILTER, avfilter_get_by_name) \
    X(CFFMPEG_FILTER, avfilter_graph_alloc) \
    X(CFFMPEG_FILTER, avfilter_graph_config) \
    X(CFFMPEG_FILTER, avfilter_graph_create_filter) \
    X(CFFMPEG_FILTER, avfilter_graph_free) \
    X(CFFMPEG_FILTER, avfilter_graph_parse_ptr) \
    X(CFFMPEG_FILTER, avfilter_inout_alloc) \
    X(CFFMPEG_FILTER, avfilter_inout_free) \
    X(CFFMPEG_FILTER, av_buffersrc_add_frame_flags) \
    X(CFFMPEG_FILTER, av_buffersink_get_frame) \
    X(CFFMPEG_UTIL, av_channel_layout_copy) \
    X(CFFMPEG_UTIL, av_channel_layout_default) \
    X(CFFMPEG_UTIL, av_channel_layout_uninit) \
    X(CFFMPEG_UTIL, av_dict_free) \
    X(CFFMPEG_UTIL, av_dict_get) \
    X(CFFMPEG_UTIL, av_dict_set) \
    X(CFFMPEG_UTIL, av_frame_alloc) \
    X(CFFMPEG_UTIL, av_frame_free) \
    X(CFFMPEG_UTIL, av_frame_get_buffer) \
    X(CFFMPEG_UTIL, av_frame_unref) \
    X(CFFMPEG_UTIL, av_free) \
    X(CFFMPEG_UTIL, av_murmur3_alloc) \
    X(CFFMPEG_UTIL, av_murmur3_final) \
    X(CFFMPEG_UTIL, av_murmur3_init) \
    X(CFFMPEG_UTIL, av_murmur3_update) \
    X(CFFMPEG_UTIL, av_samples_set_silence) \
    X(CFFMPEG_UTIL, av_strdup) \
    X(CFFMPEG_UTIL, av_strerror) \
    X(CFFMPEG_UTIL, av_log_set_level) \
    X(CFFMPEG_UTIL, av_log_set_callback) \
    X(CFFMPEG_RESAMPLE, swr_alloc_set_opts2) \
    X(CFFMPEG_RESAMPLE, swr_convert) \
    X(CFFMPEG_RESAMPLE, swr_free) \
    X(CFFMPEG_RESAMPLE, swr_get_out_samples) \
    X(CFFMPEG_RESAMPLE, swr_init)

CLAZY_LIBRARIES(cffmpeg, CFFMPEG_LAZY_FUNCTIONS,
    "libavformat.so." AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR),
    "libavcodec.so." AV_STRINGIFY(LIBAVCODEC_VERSION_MAJOR),
    "libavfilter.so." AV_STRINGIFY(LIBAVFILTER_VERSION_MAJOR),
    "libavutil.so." AV_STRINGIFY(LIBAVUTIL_VERSION_MAJOR),
    "libswresample.so." AV_STRINGIFY(LIBSWRESAMPLE_VERSION_MAJOR))
#define CFFMPEG_ACCESSOR(library, name) CLAZY_ACCESSOR(cffmpeg, name)
CFFMPEG_LAZY_FUNCTIONS(CFFMPEG_ACCESSOR)
#undef CFFMPEG_ACCESSOR

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
    // libavformat is opened on first use, so its class is known by its name.
    if (class == NULL || class->class_name == NULL || strcmp(class->class_name, "AVFormatContext") != 0) return;
    AVFormatContext *format_context = context;
    format_context->opaque = (void *)((intptr_t)format_context->opaque + 1);
}

/// FFmpeg logs to stderr by default; VoiceAlarm reports problems through its own errors
/// (and counts the demuxers' errors, above).
static inline void cffmpeg_quiet_logging(void) {
    cffmpeg_av_log_set_level()(AV_LOG_QUIET);
    cffmpeg_av_log_set_callback()(cffmpeg_count_demuxer_errors);
}

/// How many error-level messages the demuxer of `context` has logged (see above).
static inline long cffmpeg_demuxer_errors(const AVFormatContext *context) { return (long)(intptr_t)context->opaque; }

#endif
