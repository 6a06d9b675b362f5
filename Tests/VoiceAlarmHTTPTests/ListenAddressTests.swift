import Testing

@testable import VoiceAlarmHTTP

@Suite("--listen ADDR:PORT")
struct ListenAddressTests {
    @Test(
        "Addresses read",
        arguments: [
            ("127.0.0.1:8470", "127.0.0.1", 8470, true), ("0.0.0.0:8470", "0.0.0.0", 8470, false), ("[::1]:80", "::1", 80, true),
            ("[::]:8470", "::", 8470, false), ("192.168.1.20:0", "192.168.1.20", 0, false), ("127.8.9.10:1", "127.8.9.10", 1, true),
            ("localhost:21000", "localhost", 21000, true),
        ])
    func reads(_ text: String, _ host: String, _ port: Int, _ loopback: Bool) throws {
        let address = try ListenAddress.parse(text).get()
        #expect(address.host == host && address.port == port && address.isLoopback == loopback)
        #expect(address.description == text)
    }

    @Test(
        "Refused with the reason",
        arguments: [
            ("8470", "no port"), ("bedside.local:8470", "not localhost nor a numeric"), ("::1:8470", "[ADDR]:PORT"), ("127.0.0.1:65536", "not a port"),
            ("127.0.0.1:http", "not a port"), ("[::1]8470", "[ADDR]:PORT"), ("999.1.1.1:80", "nor a numeric"),
        ])
    func refused(_ text: String, _ reason: String) {
        guard case .failure(let failure) = ListenAddress.parse(text) else {
            Issue.record("\(text) was read")
            return
        }
        #expect(failure.description.contains(reason), "\(failure)")
    }

    @Test("Each account has a port of its own, below the ephemeral range", arguments: [(0, 20000), (1000, 21000), (1001, 21001), (65534, 25534)])
    func accountPort(uid: UInt32, port: Int) {
        #expect(ListenAddress.accountPort(uid: uid) == port)
        #expect(ListenAddress.accountDefault(uid: uid) == ListenAddress(host: "localhost", port: port))
    }
}

@Suite("What a server holds: every address a link, the Host check or the certificate names")
struct ListenPlanTests {
    static let machine = ["192.168.1.20", "fd00::2", "127.0.0.1", "::1"]

    @Test(
        "Sockets, addresses, names and the link's host for each --listen",
        arguments: [
            ("localhost:21000", machine, ["127.0.0.1:21000", "[::1]:21000"], ["127.0.0.1", "::1"], ["localhost"], "127.0.0.1"),
            ("localhost:21000", ["192.168.1.20", "127.0.0.1"], ["127.0.0.1:21000"], ["127.0.0.1"], ["localhost"], "127.0.0.1"),
            (
                "0.0.0.0:8470", machine, ["dual [::]:8470"], ["192.168.1.20", "fd00::2", "127.0.0.1", "::1"], ["localhost", "bedside", "bedside.local"],
                "192.168.1.20"
            ),
            (
                "[::]:8470", machine, ["dual [::]:8470"], ["192.168.1.20", "fd00::2", "127.0.0.1", "::1"], ["localhost", "bedside", "bedside.local"],
                "192.168.1.20"
            ),
            (
                "0.0.0.0:8470", ["192.168.1.20", "127.0.0.1"], ["0.0.0.0:8470"], ["192.168.1.20", "127.0.0.1"], ["localhost", "bedside", "bedside.local"],
                "192.168.1.20"
            ),
            ("127.0.0.1:8470", machine, ["127.0.0.1:8470"], ["127.0.0.1"], [], "127.0.0.1"),
            ("[::1]:8470", machine, ["[::1]:8470"], ["::1"], [], "::1"),
            ("192.168.1.20:8470", machine, ["192.168.1.20:8470"], ["192.168.1.20"], [], "192.168.1.20"),
        ] as [(String, [String], [String], [String], [String], String)])
    func plan(_ listen: String, _ machine: [String], _ sockets: [String], _ addresses: [String], _ names: [String], _ link: String) throws {
        let plan = ListenPlan(try ListenAddress.parse(listen).get(), machineAddresses: machine, hostName: "Bedside")
        #expect(plan.sockets.map { ($0.dualStack ? "dual " : "") + $0.address.description } == sockets)
        #expect(plan.addresses == addresses && plan.names == names && plan.linkHost == link)
        #expect(plan.hosts == Set((addresses + names).map { $0.lowercased() }))
    }

    @Test(
        "Sockets systemd passed serve the plan only when they are its sockets, every one",
        arguments: [
            ("localhost:21000", ["127.0.0.1:21000", "[::1]:21000"], true), ("localhost:21000", ["[::1]:21000", "127.0.0.1:21000"], true),
            ("localhost:21000", ["127.0.0.1:21000"], false), ("localhost:21000", ["127.0.0.1:21000", "[::1]:21000", "127.0.0.2:21000"], false),
            ("localhost:21000", ["127.0.0.1:8470", "[::1]:8470"], false), ("localhost:0", ["127.0.0.1:8470", "[::1]:8470"], true),
            ("[::]:8470", ["dual [::]:8470"], true), ("[::]:8470", ["[::]:8470"], false), ("[0:0::0]:8470", ["dual [::]:8470"], true),
        ] as [(String, [String], Bool)])
    func adopting(_ listen: String, _ passed: [String], _ served: Bool) throws {
        let plan = ListenPlan(try ListenAddress.parse(listen).get(), machineAddresses: Self.machine, hostName: "bedside")
        let sockets = try passed.enumerated().map { index, text in
            let dual = text.hasPrefix("dual ")
            return ListenPlan.Socket(try ListenAddress.parse(dual ? String(text.dropFirst(5)) : text).get(), dualStack: dual, inherited: Int32(3 + index))
        }
        let adopted = try? plan.adopting(sockets)
        #expect((adopted != nil) == served)
        if let adopted { #expect(Set(adopted.sockets.compactMap(\.inherited)) == Set(3..<(3 + Int32(passed.count)))) }
    }

    @Test("localhost is held only with both loopback addresses; a name that is not ASCII is never one")
    func names() throws {
        let plan = ListenPlan(ListenAddress(host: "0.0.0.0", port: 1), machineAddresses: ["127.0.0.1"], hostName: "café")
        #expect(plan.names == ["localhost"] && plan.isLoopbackOnly)
    }
}

@Suite("What the authority may certify of the machine's own networks")
struct MachineNetworksTests {
    @Test(
        "Private ranges are whole networks; anything else is the address alone",
        arguments: [
            ([10, 1, 2, 3], true), ([172, 16, 0, 1], true), ([172, 32, 0, 1], false), ([192, 168, 1, 20], true), ([100, 64, 0, 1], true),
            ([169, 254, 1, 1], true), ([192, 0, 2, 2], false), ([8, 8, 8, 8], false), ([0xFD] + [UInt8](repeating: 0, count: 15), true),
            ([0x20, 0x01] + [UInt8](repeating: 0, count: 14), false),
        ] as [([UInt8], Bool)])
    func isPrivate(_ bytes: [UInt8], _ expected: Bool) {
        #expect(MachineAddresses.isPrivate(bytes) == expected)
    }
}
