// What Swift cannot import from GnuTLS's headers. Every helper is prefixed `cgnutls_`.
#ifndef CGNUTLS_SHIM_H
#define CGNUTLS_SHIM_H

#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <gnutls/crypto.h>
#include <gnutls/abstract.h>

/// GNUTLS_CURVE_TO_BITS is a function-like macro: the `bits` argument of
/// gnutls_x509_privkey_generate that asks for a named curve instead of a size.
static inline unsigned int cgnutls_curve_to_bits(gnutls_ecc_curve_t curve) { return GNUTLS_CURVE_TO_BITS(curve); }

/// gnutls_free is a global function pointer hidden behind a macro of the same name (a mutable
/// global Swift 6 calls unsafe): frees what GnuTLS allocated for a caller, e.g. an export's bytes.
static inline void cgnutls_free(void *pointer) { gnutls_free(pointer); }

#endif
