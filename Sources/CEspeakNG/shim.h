// libespeak-ng's C API (speak_lib.h), opened on first use (CLazyLoad): only `clip say` speaks,
// and eSpeak NG with its dependencies is a few milliseconds of every start otherwise.
// Swift asks `cespeakng_load()` first, then calls `cespeakng_espeak_Synth()(…)`.
#ifndef CESPEAKNG_SHIM_H
#define CESPEAKNG_SHIM_H

#include <espeak-ng/speak_lib.h>

#include "../CLazyLoad/shim.h"

/// Every function of libespeak-ng VoiceAlarm calls (one library: index 0).
#define CESPEAKNG_FUNCTIONS(X) \
    X(0, espeak_Initialize) \
    X(0, espeak_Terminate) \
    X(0, espeak_SetVoiceByName) \
    X(0, espeak_SetSynthCallback) \
    X(0, espeak_Synth)

/// libespeak-ng's soname: speak_lib.h carries no version macro, and the ABI has been 1 since
/// eSpeak NG began (Debian's libespeak-ng1).
CLAZY_LIBRARIES(cespeakng, CESPEAKNG_FUNCTIONS, "libespeak-ng.so.1")
#define CESPEAKNG_ACCESSOR(library, name) CLAZY_ACCESSOR(cespeakng, name)
CESPEAKNG_FUNCTIONS(CESPEAKNG_ACCESSOR)
#undef CESPEAKNG_ACCESSOR

#endif
