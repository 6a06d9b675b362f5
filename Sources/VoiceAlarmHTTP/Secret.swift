internal import CGnuTLS
import Foundation

/// The secrets of pairing a browser with `voicealarm serve`: the one-time code a person types,
/// the bearer token the browser keeps afterwards, and the digests the server stores in their
/// place, so a copy of the server's files gives no one a working token.
///
/// ```swift
/// let code = try Secret.code()          // "K7QX2MPA9R", shown on the server's terminal
/// let token = try Secret.token()        // given to the browser once the code matches
/// let stored = Secret.digest(token)     // all the server keeps, looked up by the digest
/// ```
///
/// Random bytes come from GnuTLS's key-level generator and digests from its SHA-256.
package enum Secret {
    /// The letters of a pairing code: capitals and digits without the look-alikes 0/O and 1/I
    /// (32 of them, so each random byte maps to a letter without bias).
    package static let codeAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"

    /// A bearer token: 32 random bytes (256 bits) as base64url without padding, 43 characters of
    /// `A–Z a–z 0–9 - _`, safe in a cookie, a header and a URL as they are. The corresponding C
    /// function is `gnutls_rnd` (`GNUTLS_RND_KEY`).
    /// - Throws: `GnuTLSError` when the generator fails.
    package static func token() throws(GnuTLSError) -> String {
        Data(try RandomBytes.make(32, .key)).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// A one-time pairing code a person can read off one screen and type on another: `length`
    /// letters of `codeAlphabet`, each equally likely. Random bytes are drawn by rejection sampling:
    /// a byte at or past the largest multiple of the alphabet's size is dropped rather than folded
    /// in (folding would favour the first letters for an alphabet whose size does not divide 256).
    /// Ten letters are 50 bits: a code that lives ten minutes stays out of reach of guessing even at
    /// the server's full rate of answers, so a right code never has to be refused for others' guesses.
    /// The corresponding C function is `gnutls_rnd` (`GNUTLS_RND_KEY`).
    /// - Parameter length: at least 1.
    /// - Throws: `GnuTLSError` when the generator fails.
    package static func code(length: Int = 10) throws(GnuTLSError) -> String {
        precondition(length >= 1, "a pairing code of \(length) letters")
        let alphabet = Array(codeAlphabet.utf8)
        let limit = 256 - 256 % alphabet.count
        var letters: [UInt8] = []
        letters.reserveCapacity(length)
        while letters.count < length {
            for byte in try RandomBytes.make(length - letters.count + 4, .key) where Int(byte) < limit && letters.count < length {
                letters.append(alphabet[Int(byte) % alphabet.count])
            }
        }
        return String(decoding: letters, as: UTF8.self)
    }

    /// The SHA-256 of `text`'s UTF-8 bytes as 64 lowercase hexadecimal digits (what `sha256sum`
    /// prints): what the server stores instead of a token or code. The corresponding C function is
    /// `gnutls_hash_fast` (`GNUTLS_DIG_SHA256`).
    package static func digest(_ text: String) -> String {
        var bytes = Array(text.utf8)
        var digest = [UInt8](repeating: 0, count: 32)
        let result = bytes.withUnsafeMutableBytes { input in
            digest.withUnsafeMutableBytes { gnutls_hash_fast(GNUTLS_DIG_SHA256, input.baseAddress, input.count, $0.baseAddress) }
        }
        // SHA-256 over bytes in memory fails only when the library itself is broken (SHA-256
        // missing or a FIPS self-test failed): no input makes it fail.
        precondition(result == 0, "gnutls_hash_fast: \(GnuTLSError(operation: "gnutls_hash_fast", code: result).reason)")
        return Hex.text(digest)
    }
}
