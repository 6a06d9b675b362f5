/// Bytes as hexadecimal text: digests in lowercase, fingerprints in the uppercase,
/// colon-separated form `openssl x509 -fingerprint` prints.
enum Hex {
    /// Two digits a byte, joined by `separator`; `uppercase` for `A`–`F`.
    static func text(_ bytes: some Sequence<UInt8>, uppercase: Bool = false, separator: String = "") -> String {
        let digits = Array((uppercase ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        return bytes.map { String(decoding: [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]], as: UTF8.self) }
            .joined(separator: separator)
    }
}
