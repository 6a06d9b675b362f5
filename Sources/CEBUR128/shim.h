// libebur128 (EBU R128 / ITU-R BS.1770 loudness) imports into Swift as it is; this header only
// gathers it for the module. Its mode flags arrive as Int32 constants.
#ifndef CEBUR128_SHIM_H
#define CEBUR128_SHIM_H

#include <ebur128.h>

#endif
