import Glibc

/// The listening sockets systemd passed `serve` (socket activation: `voicealarm-web-<id>.socket`
/// holds the port while the page restarts or is upgraded, so no other account can take it
/// meanwhile), by the protocol of `sd_listen_fds`: `LISTEN_PID` is this process, `LISTEN_FDS`
/// descriptors from 3 on. Each is described by the address it is bound to (`getsockname`) and,
/// for IPv6, whether it takes IPv4 too (`IPV6_V6ONLY`). The variables are removed once read, so
/// no child takes the sockets for its own.
package enum InheritedSockets {
    /// The sockets passed to this process, or none.
    package static func take() -> [ListenPlan.Socket] {
        defer {
            unsetenv("LISTEN_PID")
            unsetenv("LISTEN_FDS")
            unsetenv("LISTEN_FDNAMES")
        }
        guard let pid = getenv("LISTEN_PID").map({ String(cString: $0) }), Int32(pid) == getpid(),
            let count = getenv("LISTEN_FDS").map({ String(cString: $0) }).flatMap(Int32.init), count > 0, count < 64
        else { return [] }
        return (3..<(3 + count)).compactMap(describe)
    }

    /// A listening TCP socket's address and stack; nil for anything else. The corresponding C
    /// functions are `getsockname` and `getsockopt`.
    static func describe(_ descriptor: Int32) -> ListenPlan.Socket? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { return nil }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let port: UInt16
        var dualStack = false
        switch Int32(storage.ss_family) {
        case AF_INET:
            var address = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee } }
            _ = inet_ntop(AF_INET, &address.sin_addr, &text, socklen_t(text.count))
            port = UInt16(bigEndian: address.sin_port)
        case AF_INET6:
            var address = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee } }
            _ = inet_ntop(AF_INET6, &address.sin6_addr, &text, socklen_t(text.count))
            port = UInt16(bigEndian: address.sin6_port)
            var only: Int32 = 1
            var size = socklen_t(MemoryLayout<Int32>.size)
            if getsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &only, &size) == 0 { dualStack = only == 0 }
        default:
            return nil
        }
        let host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return ListenPlan.Socket(ListenAddress(host: host, port: Int(port)), dualStack: dualStack, inherited: descriptor)
    }
}
