import Testing

@testable import VoiceAlarmScheduling

@Suite("Where a user manager finds units")
struct ShippedUnitSearchPathTests {
    @Test("The default order: the person's own, the administrator's, then the vendors', /usr/lib last")
    func defaults() {
        let path = ShippedUnit.searchPath(environment: ["HOME": "/home/ana", "XDG_DATA_DIRS": "/usr/share"])
        #expect(path.first == "/home/ana/.config/systemd/user")
        #expect(path.contains("/usr/share/systemd/user") && path.last == "/usr/lib/systemd/user")
    }

    @Test(
        "$SYSTEMD_UNIT_PATH replaces it, or comes first when it ends with ':'",
        arguments: [
            ("/a:/b", ["/a", "/b"]), ("/a:relative:/b", ["/a", "/b"]),
        ])
    func unitPath(given: String, expected: [String]) {
        #expect(ShippedUnit.searchPath(environment: ["HOME": "/home/ana", "SYSTEMD_UNIT_PATH": given]) == expected)
    }

    @Test("A trailing ':' keeps the default path after it")
    func appended() {
        let path = ShippedUnit.searchPath(environment: ["HOME": "/home/ana", "SYSTEMD_UNIT_PATH": "/a:"])
        #expect(path.first == "/a" && path.dropFirst().first == "/home/ana/.config/systemd/user" && path.last == "/usr/lib/systemd/user")
    }
}
