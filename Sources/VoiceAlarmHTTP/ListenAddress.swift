/// Where a server listens: a numeric address and a port, as `--listen` names them
/// (`127.0.0.1:8470`, `0.0.0.0:8470`, `[::1]:8470`, `[::]:8470`). Host names are not resolved:
/// the address a server binds is the one the person typed.
package struct ListenAddress: Equatable, Sendable, CustomStringConvertible {
    package var host: String
    package var port: Int

    package init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `127.0.0.1:8470`: loopback only, the default.
    package static let loopbackDefault = ListenAddress(host: "127.0.0.1", port: 8470)

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
        let address = ListenAddress(host: String(host), port: port)
        guard address.family != nil else {
            return .failure(ParseFailure(text: text, reason: "'\(host)' is not a numeric IPv4 or IPv6 address"))
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

    /// Whether only this machine can connect: 127.0.0.0/8 or ::1.
    package var isLoopback: Bool { IPAddressText.isLoopback(host) }

    package var description: String { family == .v6 ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
