// Nettle's SHA-256 (the hashing GnuTLS itself is built on): small to load, so a command that
// only reads the library can name a ringtone's inputs without opening FFmpeg.
#ifndef CNETTLE_SHIM_H
#define CNETTLE_SHIM_H

#include <nettle/sha2.h>

/// `sha256_init` and friends are macros naming `nettle_sha256_*`; Swift calls these instead.
static inline void cnettle_sha256_init(struct sha256_ctx *context) { nettle_sha256_init(context); }
static inline void cnettle_sha256_update(struct sha256_ctx *context, size_t length, const uint8_t *data) {
    nettle_sha256_update(context, length, data);
}
static inline void cnettle_sha256_digest(struct sha256_ctx *context, uint8_t *digest) {
    nettle_sha256_digest(context, SHA256_DIGEST_SIZE, digest);
}

#endif
