import VoiceAlarmHTTP

/// The rule against DNS rebinding: a request is answered only when its `Host` is a name or
/// address this server answers for (its certificate's names, the address it listens on, the
/// machine's addresses when it listens on all of them, `localhost`) and, when it names a port,
/// the server's own. A page of `evil.example` that re-points its name at this machine is sent
/// with `Host: evil.example` and finds nothing here, not even the pairing page.
enum HostCheck {
    /// Why the request is not for this server, or nil.
    static func problem(_ request: HTTPRequest, hosts: Set<String>, port: Int?) -> String? {
        guard let host = request.header("host"), !host.isEmpty else { return "the request names no Host: this server answers only for its own names" }
        guard let (name, givenPort) = split(host), hosts.contains(name) else {
            return "'\(LogText.bounded(host, limit: 100))' is not a name this server answers for"
        }
        if let givenPort, let port, givenPort != port {
            return "'\(LogText.bounded(host, limit: 100))' names another port: this server listens on \(port)"
        }
        return nil
    }

    /// `name[:port]` or `[v6][:port]` as the lowercased name without a final dot, and the port.
    static func split(_ host: String) -> (String, Int?)? {
        var name = Substring(host.lowercased())
        var port: Int?
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return nil }
            let after = name[name.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let number = Int(after.dropFirst()), (1...65535).contains(number) else { return nil }
                port = number
            }
            name = name[name.index(after: name.startIndex)..<close]
        } else if let colon = name.lastIndex(of: ":") {
            guard let number = Int(name[name.index(after: colon)...]), (1...65535).contains(number) else { return nil }
            port = number
            name = name[..<colon]
        }
        if name.hasSuffix(".") { name = name.dropLast() }
        return name.isEmpty ? nil : (String(name), port)
    }
}
