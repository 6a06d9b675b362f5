// What Swift cannot do with alsa/asoundlib.h. Every helper is prefixed `calsa_`.
#ifndef CALSA_SHIM_H
#define CALSA_SHIM_H

#include <alsa/asoundlib.h>

/// ALSA prints its own errors to stderr; the handler type is variadic, which Swift cannot
/// implement. VoiceAlarm reports device problems through its own errors instead.
static void calsa_silent_handler(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}
static inline void calsa_silence_errors(void) { snd_lib_error_set_handler(calsa_silent_handler); }

#endif
