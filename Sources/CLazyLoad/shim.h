// Opening a C library on first use instead of at every start of `voicealarm`: FFmpeg, eSpeak NG
// and libmosquitto bring dozens of shared libraries with them, and a command that uses none of
// them (`alarm list`, `--version`) must not pay for loading them. Only macros: a library module's
// shim.h includes this file and declares its functions with them, so Swift sees, per module,
//
//   PREFIX_load()      opens the libraries and finds every function, once (pthread_once; safe
//                      from any thread); NULL when all were found, else why not (dlerror's words);
//   PREFIX_NAME()      the function NAME itself, after a load that succeeded (a use before one
//                      is a bug: it stops the process, naming why).
//
// The module map of such a library links nothing, so a call that does not go through the table
// fails the build. The sonames are the ones of the headers built against.
#ifndef CLAZYLOAD_SHIM_H
#define CLAZYLOAD_SHIM_H

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define CLAZY_FIELD(library, name) __typeof__(name) *name;
#define CLAZY_FIND(library, name) \
    table->name = (__typeof__(name) *)dlsym(handles[library], #name); \
    if (table->name == NULL) { \
        snprintf(table->failure, sizeof table->failure, "%s: no function %s", sonames[library], #name); \
        return; \
    }

/// The table of `FUNCTIONS` (an X-macro list of `X(library index, name)`) found in the libraries
/// named by the sonames that follow, in index order, and `PREFIX_load()`.
#define CLAZY_LIBRARIES(PREFIX, FUNCTIONS, ...) \
    typedef struct { \
        char failure[512]; \
        FUNCTIONS(CLAZY_FIELD) \
    } PREFIX##_lazy_table; \
    static PREFIX##_lazy_table *PREFIX##_lazy_storage(void) { \
        static PREFIX##_lazy_table table; \
        return &table; \
    } \
    static void PREFIX##_lazy_open(void) { \
        static const char *const sonames[] = {__VA_ARGS__}; \
        PREFIX##_lazy_table *table = PREFIX##_lazy_storage(); \
        void *handles[sizeof sonames / sizeof sonames[0]]; \
        for (size_t library = 0; library < sizeof sonames / sizeof sonames[0]; library++) { \
            handles[library] = dlopen(sonames[library], RTLD_NOW | RTLD_LOCAL); \
            if (handles[library] == NULL) { \
                const char *reason = dlerror(); \
                snprintf(table->failure, sizeof table->failure, "%s", reason != NULL ? reason : sonames[library]); \
                return; \
            } \
        } \
        FUNCTIONS(CLAZY_FIND) \
    } \
    static inline const char *_Nullable PREFIX##_load(void) { \
        static pthread_once_t once = PTHREAD_ONCE_INIT; \
        pthread_once(&once, PREFIX##_lazy_open); \
        const PREFIX##_lazy_table *table = PREFIX##_lazy_storage(); \
        return table->failure[0] != 0 ? table->failure : NULL; \
    } \
    static inline const PREFIX##_lazy_table *PREFIX##_lazy_loaded(void) { \
        const char *failure = PREFIX##_load(); \
        if (failure != NULL) { \
            fprintf(stderr, "voicealarm: %s was used although it could not be loaded\n", failure); \
            abort(); \
        } \
        return PREFIX##_lazy_storage(); \
    }

/// One accessor: `PREFIX_NAME()` is the library's `NAME`. A module defines
/// `#define X_ACCESSOR(library, name) CLAZY_ACCESSOR(PREFIX, name)` and expands its list with it.
#define CLAZY_ACCESSOR(PREFIX, name) \
    static inline __typeof__(name) *_Nonnull PREFIX##_##name(void) { return PREFIX##_lazy_loaded()->name; }

#endif
