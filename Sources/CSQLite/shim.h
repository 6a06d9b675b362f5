// What Swift cannot import from sqlite3.h. Every helper is prefixed `csqlite_`.
#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

#include <sqlite3.h>

/// SQLITE_TRANSIENT is a cast of -1 to a function pointer: SQLite copies the bound bytes.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

#endif
