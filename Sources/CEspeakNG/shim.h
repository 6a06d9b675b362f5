// libespeak-ng's C API (speak_lib.h) imports into Swift as it is; this header gathers it for the module.
#ifndef CESPEAKNG_SHIM_H
#define CESPEAKNG_SHIM_H

#include <espeak-ng/speak_lib.h>

#endif
