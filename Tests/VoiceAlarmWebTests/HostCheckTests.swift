import Testing
import VoiceAlarmHTTP

@testable import VoiceAlarmWeb

@Suite("Host and log text: only our names, and nothing unbounded or unescaped in the log")
struct HostCheckTests {
    @Test(
        "Host headers",
        arguments: [
            ("127.0.0.1:8470", true), ("localhost:8470", true), ("LOCALHOST.:8470", true), ("[::1]:8470", true), ("127.0.0.1", true),
            ("evil.example:8470", false), ("evil.example", false), ("127.0.0.1:9999", false), ("127.0.0.1:", false), ("[::1", false),
            ("", false), ("127.0.0.1:8470:1", false), ("127.0.0.2:8470", false),
        ])
    func host(_ host: String, _ ours: Bool) {
        let request = HTTPRequest(method: "GET", path: "/", headers: host.isEmpty ? [:] : ["host": host])
        #expect((HostCheck.problem(request, hosts: ["127.0.0.1", "localhost", "::1"], port: 8470) == nil) == ours, "\(host)")
    }

    @Test("Logged text is printable ASCII and bounded")
    func logText() {
        #expect(LogText.bounded("/api/alarms/9c41d2e0") == "/api/alarms/9c41d2e0")
        #expect(LogText.bounded("/a\nb\u{1B}[2Jé%") == "/a%0Ab%1B[2J%C3%A9%25")
        let long = LogText.bounded(String(repeating: "x", count: 100_000))
        #expect(long.count < 230 && long.hasSuffix("…(100000 bytes)"))
    }
}
