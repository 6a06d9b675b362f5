import Glibc

/// The numeric addresses this machine's interfaces have (`getifaddrs`), loopback last: what a
/// phone on the same network can reach, and what a certificate for `0.0.0.0` must name.
package enum MachineAddresses {
    package static func all() -> [String] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0 else { return ["127.0.0.1", "::1"] }
        defer { freeifaddrs(first) }
        var found: [String] = []
        var cursor = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr else { continue }
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                    var raw = v4.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &raw, &buffer, socklen_t(buffer.count))
                }
            case AF_INET6:
                address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                    var raw = v6.pointee.sin6_addr
                    _ = inet_ntop(AF_INET6, &raw, &buffer, socklen_t(buffer.count))
                }
            default: continue
            }
            let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // Link-local IPv6 addresses need a zone to be reached: no use in a link on a phone.
            if !text.isEmpty, !text.lowercased().hasPrefix("fe80"), !found.contains(text) { found.append(text) }
        }
        return found.filter { !IPAddressText.isLoopback($0) } + found.filter(IPAddressText.isLoopback)
    }

    /// What this machine's authority may certify beyond loopback, as `NETWORK/PREFIX`, from each
    /// interface's address and netmask (`getifaddrs`): the private network an address is on
    /// (`192.168.1.0/24`, `fd00::/64`: the range DHCP moves it within), at most a /16 of IPv4 or a
    /// /48 of IPv6; any other address (a public one, one on a wider network) alone, `/32` or
    /// `/128`, so the authority speaks for no one else's address. Loopback and link-local IPv6
    /// are left out.
    package static func networks() -> [String] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0 else { return [] }
        defer { freeifaddrs(first) }
        var found: [String] = []
        var cursor = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr, let mask = entry.pointee.ifa_netmask else { continue }
            let family = Int32(address.pointee.sa_family)
            let size = family == AF_INET ? 4 : family == AF_INET6 ? 16 : 0
            guard size > 0 else { continue }
            let bytes = Self.bytes(address, family: family), maskBytes = Self.bytes(mask, family: family)
            guard bytes.count == size, maskBytes.count == size else { continue }
            let prefix = maskBytes.reduce(0) { $0 + $1.nonzeroBitCount }
            let wholeNetwork = isPrivate(bytes) && prefix >= (size == 4 ? 16 : 48)
            let network = wholeNetwork ? zip(bytes, maskBytes).map { $0 & $1 } : bytes
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
            guard inet_ntop(family, network, &text, socklen_t(text.count)) != nil else { continue }
            let name = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let range = "\(name)/\(wholeNetwork ? prefix : size * 8)"
            if IPAddressText.isLoopback(name) || name.lowercased().hasPrefix("fe80") || found.contains(range) { continue }
            found.append(range)
        }
        return found
    }

    /// Whether an address (4 or 16 bytes) is in a private range: 10/8, 172.16/12, 192.168/16,
    /// 100.64/10 (carrier-grade NAT, VPNs), 169.254/16; IPv6 unique local, fc00::/7.
    static func isPrivate(_ bytes: [UInt8]) -> Bool {
        if bytes.count == 16 { return bytes[0] & 0xFE == 0xFC }
        guard bytes.count == 4 else { return false }
        switch (bytes[0], bytes[1]) {
        case (10, _), (192, 168), (169, 254): return true
        case (172, let second): return (16...31).contains(second)
        case (100, let second): return (64...127).contains(second)
        default: return false
        }
    }

    /// The 4 or 16 bytes of an IPv4 or IPv6 socket address.
    private static func bytes(_ address: UnsafeMutablePointer<sockaddr>, family: Int32) -> [UInt8] {
        if family == AF_INET {
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { withUnsafeBytes(of: $0.pointee.sin_addr) { Array($0) } }
        }
        return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) } }
    }

    /// The address a phone should open for a server listening on `listen`: the address itself,
    /// or for every address (`0.0.0.0`, `::`) this machine's first one of the family it takes
    /// (IPv4 only for `0.0.0.0`), else loopback.
    package static func reachable(for listen: ListenAddress) -> String {
        switch listen.host {
        case "0.0.0.0": all().first { IPAddressText.isV4($0) && !IPAddressText.isLoopback($0) } ?? "127.0.0.1"
        case "::": all().first { !IPAddressText.isLoopback($0) } ?? "::1"
        default: listen.host
        }
    }

    /// This machine's host name (`gethostname`).
    package static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
