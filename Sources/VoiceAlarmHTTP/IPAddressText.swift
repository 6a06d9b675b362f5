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
