import Glibc

/// Questions about numeric addresses as text, answered by the C library's `inet_pton`.
package enum IPAddressText {
    package static func isV4(_ text: String) -> Bool {
        var address = in_addr()
        return inet_pton(AF_INET, text, &address) == 1
    }

    package static func isV6(_ text: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET6, text, &address) == 1
    }

    /// The address as `inet_ntop` writes it (`0:0::1` is `::1`), or the text itself when it is
    /// not an address: one spelling to compare.
    package static func canonical(_ text: String) -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        let family: Int32
        if inet_pton(AF_INET, text, &bytes) == 1 {
            family = AF_INET
        } else if inet_pton(AF_INET6, text, &bytes) == 1 {
            family = AF_INET6
        } else {
            return text.lowercased()
        }
        var out = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        guard inet_ntop(family, bytes, &out, socklen_t(out.count)) != nil else { return text.lowercased() }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// 127.0.0.0/8, ::1, and IPv4-mapped loopback (::ffff:127.x.y.z).
    package static func isLoopback(_ text: String) -> Bool {
        if isV4(text) { return text.hasPrefix("127.") }
        guard isV6(text) else { return false }
        let lowered = text.lowercased()
        if lowered.hasPrefix("::ffff:") { return isLoopback(String(lowered.dropFirst(7))) }
        var address = in6_addr()
        _ = inet_pton(AF_INET6, text, &address)
        let bytes = withUnsafeBytes(of: address) { Array($0) }
        return bytes.dropLast().allSatisfy { $0 == 0 } && bytes.last == 1
    }
}
