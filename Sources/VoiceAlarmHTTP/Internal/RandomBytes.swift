internal import CGnuTLS

/// Random bytes from GnuTLS's generator, seeded by the kernel. The corresponding C function is
/// `gnutls_rnd`.
enum RandomBytes {
    /// How unpredictable the bytes must be: GnuTLS draws each level from a generator of its own.
    enum Level {
        /// Secret and long-lived: keys, bearer tokens, pairing codes (`GNUTLS_RND_KEY`).
        case key
        /// Unique but not secret: serial numbers (`GNUTLS_RND_NONCE`).
        case nonce

        var gnutls: gnutls_rnd_level_t {
            switch self {
            case .key: GNUTLS_RND_KEY
            case .nonce: GNUTLS_RND_NONCE
            }
        }
    }

    /// `count` random bytes.
    /// - Throws: `GnuTLSError` when the generator fails (it could not be seeded, or a FIPS self-test failed).
    static func make(_ count: Int, _ level: Level) throws(GnuTLSError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        try GnuTLSError.check("gnutls_rnd") {
            bytes.withUnsafeMutableBytes { gnutls_rnd(level.gnutls, $0.baseAddress, $0.count) }
        }
        return bytes
    }
}
