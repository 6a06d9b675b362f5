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
        package init(_ address: ListenAddress, dualStack: Bool = false) {
            self.address = address
            self.dualStack = dualStack
        }
    }

    /// The sockets to bind, all on one port: the server starts only when it holds every one.
    package let sockets: [Socket]
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
        switch listen.host.lowercased() {
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

    /// The names and addresses a request's `Host` may give (lowercased).
    package var hosts: Set<String> { Set((names + addresses).map { $0.lowercased() }) }

    /// Whether only this machine can reach what is held.
    package var isLoopbackOnly: Bool { addresses.allSatisfy(IPAddressText.isLoopback) }
}
