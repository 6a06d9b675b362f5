/// Where a server listens: a numeric address and a port, as `--listen` names them
/// (`127.0.0.1:8470`, `0.0.0.0:8470`, `[::1]:8470`, `[::]:8470`), or `localhost:PORT`, which
/// stands for both loopback addresses (`ListenPlan`). No other host name is resolved: the
/// address a server binds is the one the person typed.
package struct ListenAddress: Equatable, Sendable, CustomStringConvertible {
    package var host: String
    package var port: Int

    package init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `localhost:PORT` with this account's own port (`accountPort(uid:)`): loopback only, the default.
    package static func accountDefault(uid: UInt32) -> ListenAddress { ListenAddress(host: "localhost", port: accountPort(uid: uid)) }

    /// The port an account's page listens on by default: 20000 plus the account's uid modulo
    /// 10000 (root 20000, the first person 21000), below the kernel's range of ephemeral ports.
    /// Each account has its own, so no account's server takes the page another expects to open,
    /// and none is a port whichever account starts first owns for everyone.
    package static func accountPort(uid: UInt32) -> Int { 20_000 + Int(uid % 10_000) }

    /// Reads `ADDR:PORT`; nil with the reason when it is not one.
    package static func parse(_ text: String) -> Result<ListenAddress, ParseFailure> {
        let host: Substring, portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                return .failure(ParseFailure(text: text, reason: "an IPv6 address is written [ADDR]:PORT"))
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else {
                return .failure(ParseFailure(text: text, reason: "it has no port (ADDR:PORT, e.g. 0.0.0.0:8470)"))
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            if host.contains(":") { return .failure(ParseFailure(text: text, reason: "an IPv6 address is written [ADDR]:PORT")) }
        }
        guard let port = Int(portText), (0...65535).contains(port) else {
            return .failure(ParseFailure(text: text, reason: "'\(portText)' is not a port (1 to 65535, or 0 for any free one)"))
        }
        let address = ListenAddress(host: host.lowercased() == "localhost" ? "localhost" : String(host), port: port)
        guard address.family != nil || address.host == "localhost" else {
            return .failure(ParseFailure(text: text, reason: "'\(host)' is not localhost nor a numeric IPv4 or IPv6 address"))
        }
        return .success(address)
    }

    /// Why `--listen` text is not an address.
    package struct ParseFailure: Error, Equatable, Sendable, CustomStringConvertible {
        package var text: String
        package var reason: String
        package var description: String { "'\(text)' is not ADDR:PORT: \(reason)" }
    }

    package enum Family: Sendable { case v4, v6 }

    /// IPv4 or IPv6, or nil when `host` is neither.
    package var family: Family? {
        if IPAddressText.isV4(host) { return .v4 }
        if IPAddressText.isV6(host) { return .v6 }
        return nil
    }

    /// Whether only this machine can connect: `localhost`, 127.0.0.0/8 or ::1.
    package var isLoopback: Bool { host == "localhost" || IPAddressText.isLoopback(host) }

    package var description: String { family == .v6 ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
