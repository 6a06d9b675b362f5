/// Where an MQTT broker listens, as `--broker` gives it: `HOST`, `HOST:PORT`, `[IPv6]:PORT`.
package struct BrokerAddress: Equatable, Sendable {
    package var host: String
    /// nil: the protocol's default (1883, or 8883 over TLS).
    package var port: Int?

    /// Why `text` is not a broker address.
    package struct Refusal: Error, Equatable, CustomStringConvertible {
        package var description: String
    }

    /// The address in `text`, or why it is none.
    package static func parse(_ text: String) -> Result<BrokerAddress, Refusal> {
        let refusal = Refusal(description: "'\(text)' is not a broker address (HOST, HOST:PORT or [IPv6]:PORT; port 1 to 65535)")
        var host = text, portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return .failure(refusal) }
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return .failure(refusal) }
                portText = rest.dropFirst()
            }
        } else if let colon = text.lastIndex(of: ":") {
            guard text.firstIndex(of: ":") == colon else { return .failure(refusal) }  // a bare IPv6 address needs brackets
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, host.utf8.count <= 253, host.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 32 && $0 != "/" && $0 != "@" }) else {
            return .failure(refusal)
        }
        guard let portText else { return .success(BrokerAddress(host: host, port: nil)) }
        guard portText.allSatisfy(\.isASCII), let port = Int(portText), (1...65535).contains(port) else { return .failure(refusal) }
        return .success(BrokerAddress(host: host, port: port))
    }
}
