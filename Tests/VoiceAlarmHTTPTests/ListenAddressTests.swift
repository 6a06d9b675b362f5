import Testing

@testable import VoiceAlarmHTTP

@Suite("--listen ADDR:PORT")
struct ListenAddressTests {
    @Test(
        "Addresses read",
        arguments: [
            ("127.0.0.1:8470", "127.0.0.1", 8470, true), ("0.0.0.0:8470", "0.0.0.0", 8470, false), ("[::1]:80", "::1", 80, true),
            ("[::]:8470", "::", 8470, false), ("192.168.1.20:0", "192.168.1.20", 0, false), ("127.8.9.10:1", "127.8.9.10", 1, true),
        ])
    func reads(_ text: String, _ host: String, _ port: Int, _ loopback: Bool) throws {
        let address = try ListenAddress.parse(text).get()
        #expect(address.host == host && address.port == port && address.isLoopback == loopback)
        #expect(address.description == text)
    }

    @Test(
        "Refused with the reason",
        arguments: [
            ("8470", "no port"), ("localhost:8470", "not a numeric"), ("::1:8470", "[ADDR]:PORT"), ("127.0.0.1:65536", "not a port"),
            ("127.0.0.1:http", "not a port"), ("[::1]8470", "[ADDR]:PORT"), ("999.1.1.1:80", "not a numeric"),
        ])
    func refused(_ text: String, _ reason: String) {
        guard case .failure(let failure) = ListenAddress.parse(text) else {
            Issue.record("\(text) was read")
            return
        }
        #expect(failure.description.contains(reason), "\(failure)")
    }
}
