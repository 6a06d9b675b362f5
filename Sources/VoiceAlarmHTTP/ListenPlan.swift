/// What a server holds for a `--listen`: the sockets it binds, and so the only names and
/// addresses a link, a QR code, the `Host` check and the certificate may name. A name is held
/// when every address it stands for is: `localhost` is `127.0.0.1` *and* `::1` (Chromium tries
/// `::1` first), so a server that left `[::1]:PORT` free would let another account's relay take
/// the page's requests there.
///
/// - `localhost:PORT` (the default): `127.0.0.1` and `::1` (when the machine has it).
/// - `0.0.0.0:PORT` or `[::]:PORT`: every address, through one dual-stack socket when the machine
///   has IPv6 (an IPv6-only `[::]` would leave `0.0.0.0:PORT` to another account), with
///   `localhost` and the host's names.
/// - any other address: that address alone, and no name.
///
/// A pure value: the machine's addresses and name are given, so the rules are tested without a
/// network.
///
/// ```swift
/// let plan = ListenPlan(ListenAddress(host: "localhost", port: 21000), machineAddresses: ["192.168.1.20", "127.0.0.1", "::1"], hostName: "bedside")
/// plan.sockets.map(\.address.description)   // ["127.0.0.1:21000", "[::1]:21000"]
/// plan.names                                // ["localhost"]
/// ```
package struct ListenPlan: Sendable, Equatable {
    /// One socket to bind.
    package struct Socket: Sendable, Equatable {
        package var address: ListenAddress
        /// An IPv6 socket that takes IPv4 too (`IPV6_V6ONLY` off).
        package var dualStack: Bool
        /// The listening socket systemd passed for it (socket activation), else nil: bound here.
        package var inherited: Int32?
        package init(_ address: ListenAddress, dualStack: Bool = false, inherited: Int32? = nil) {
            self.address = address
            self.dualStack = dualStack
            self.inherited = inherited
        }

        /// `127.0.0.1:21000`, `[::]:8470 (dual-stack)`.
        package var description: String { address.description + (dualStack ? " (dual-stack)" : "") }
    }

    /// Why sockets systemd passed do not serve this plan.
    package struct Mismatch: Error, Equatable, Sendable, CustomStringConvertible {
        /// The sockets the plan holds, and those passed.
        package var wanted: [String], passed: [String]
        package var description: String {
            "the socket unit passed \(passed.joined(separator: " and ")), but serve holds \(wanted.joined(separator: " and ")) for its --listen: "
                + "install the web service again ('voicealarm service install --web') so its socket unit matches"
        }
    }

    /// The sockets to bind, all on one port: the server starts only when it holds every one.
    package private(set) var sockets: [Socket]
    /// The numeric addresses held, in the order a link prefers them (LAN before loopback).
    package let addresses: [String]
    /// The names held: `localhost`, and the host's own names when every address is held.
    package let names: [String]
    /// The address a phone opens: the first address held beyond loopback, else loopback.
    package let linkHost: String

    /// - Parameters:
    ///   - listen: the address asked for; its host is `localhost`, `0.0.0.0`, `::` or a numeric address.
    ///   - machineAddresses: the machine's addresses (`MachineAddresses.all()`).
    ///   - hostName: the machine's host name; `NAME.local` goes with it.
    package init(_ listen: ListenAddress, machineAddresses: [String], hostName: String) {
        let hasV6Loopback = machineAddresses.contains("::1")
        let hasV6 = machineAddresses.contains(where: IPAddressText.isV6)
        let port = listen.port
        switch IPAddressText.canonical(listen.host.lowercased()) {
        case "localhost":
            sockets = [Socket(ListenAddress(host: "127.0.0.1", port: port))] + (hasV6Loopback ? [Socket(ListenAddress(host: "::1", port: port))] : [])
            addresses = ["127.0.0.1"] + (hasV6Loopback ? ["::1"] : [])
            names = ["localhost"]
        case "0.0.0.0", "::":
            sockets = [hasV6 ? Socket(ListenAddress(host: "::", port: port), dualStack: true) : Socket(ListenAddress(host: "0.0.0.0", port: port))]
            let all = hasV6 ? machineAddresses : machineAddresses.filter(IPAddressText.isV4)
            addresses = all.filter { !IPAddressText.isLoopback($0) } + all.filter(IPAddressText.isLoopback)
            let host = hostName.lowercased()
            let hostNames = host.isEmpty || host == "localhost" || !host.allSatisfy(\.isASCII) ? [] : [host, "\(host).local"]
            names = ["localhost"] + hostNames
        default:
            sockets = [Socket(listen)]
            addresses = [listen.host]
            names = []
        }
        linkHost =
            addresses.first { IPAddressText.isV4($0) && !IPAddressText.isLoopback($0) }
            ?? addresses.first { !IPAddressText.isLoopback($0) } ?? addresses.first ?? "127.0.0.1"
    }

    /// This plan served from listening sockets systemd passed (`InheritedSockets`): each of its
    /// sockets is one passed, on the same address, port (any, when asked for 0) and stack, and
    /// every one passed is used.
    /// - Throws: `Mismatch` naming both sides when they differ.
    package func adopting(_ passed: [ListenPlan.Socket]) throws(Mismatch) -> ListenPlan {
        var left = passed
        var adopted: [Socket] = []
        for socket in sockets {
            guard
                let index = left.firstIndex(where: {
                    IPAddressText.canonical($0.address.host) == IPAddressText.canonical(socket.address.host)
                        && (socket.address.port == 0 || $0.address.port == socket.address.port) && $0.dualStack == socket.dualStack
                })
            else { break }
            adopted.append(left.remove(at: index))
        }
        guard adopted.count == sockets.count, left.isEmpty else {
            throw Mismatch(wanted: sockets.map(\.description), passed: passed.map(\.description))
        }
        var plan = self
        plan.sockets = adopted
        return plan
    }

    /// The names and addresses a request's `Host` may give (lowercased).
    package var hosts: Set<String> { Set((names + addresses).map { $0.lowercased() }) }

    /// Whether only this machine can reach what is held.
    package var isLoopbackOnly: Bool { addresses.allSatisfy(IPAddressText.isLoopback) }
}
