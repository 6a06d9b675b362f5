// libsndfile imports into Swift as it is; this header only gathers it for the module.
// (Its SF_FORMAT_* constants arrive as Int and are converted where they are used.)
#ifndef CSNDFILE_SHIM_H
#define CSNDFILE_SHIM_H

#include <sndfile.h>

#endif
