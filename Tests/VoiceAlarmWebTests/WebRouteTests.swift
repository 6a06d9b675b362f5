import Testing
import TestSupport
@testable import VoiceAlarmWeb

@Suite("Routes are read from the method and path alone")
struct WebRouteTests {
    @Test("Paths and methods to routes", arguments: [
        ("GET", "/", WebRoute.page), ("GET", "/pair", .pairPage), ("GET", "/api/alarms", .alarms), ("POST", "/api/alarms", .addAlarm),
        ("DELETE", "/api/alarms/9c41d2e0", .removeAlarm("9c41d2e0")), ("PUT", "/api/alarms/9c41d2e0/voice", .setVoice("9c41d2e0")),
        ("POST", "/api/clips/say", .sayClip), ("PUT", "/api/clips/say", .methodNotAllowed(allowed: ["POST"])),
        ("GET", "/api/clips/../../etc/passwd", .unknown), ("GET", "/api/playlists/morning", .playlist("morning")),
        ("HEAD", "/api/status", .status), ("GET", "/api/stop", .methodNotAllowed(allowed: ["POST"])), ("GET", "/etc/passwd", .unknown),
    ])
    func routes(_ method: String, _ path: String, _ route: WebRoute) {
        #expect(WebRoute(method: method, segments: path.split(separator: "/").map(String.init)) == route)
    }

    @Test("Only the pairing page and its files are open; every change is marked as one")
    func openAndChanging() {
        let open = GuardedRoutes.all.map { WebRoute(method: $0.0, segments: $0.1.split(separator: "/").map(String.init)) }.filter(\.isOpen)
        #expect(open.isEmpty)
        for (method, path) in GuardedRoutes.all where method != "GET" {
            #expect(WebRoute(method: method, segments: path.split(separator: "/").map(String.init)).changesState, "\(method) \(path)")
        }
    }
}
