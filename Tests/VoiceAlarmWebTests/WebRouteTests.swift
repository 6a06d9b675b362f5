import TestSupport
import Testing
import VoiceAlarmHTTP

@testable import VoiceAlarmWeb

@Suite("Routes are read from the method and path alone, from one table")
struct WebRouteTests {
    /// What a method and path name: a route's path and its parameters, "404", or "405 ALLOWED".
    static func named(_ method: String, _ path: String) -> String {
        switch WebRoutes.router.match(method: method, segments: path.split(separator: "/").map(String.init)) {
        case .found(let endpoint, let parameters):
            "\(endpoint.method) \(endpoint.path)" + parameters.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        case .unknown: "404"
        case .methodNotAllowed(let allowed): "405 " + allowed.joined(separator: ",")
        }
    }

    @Test(
        "A path is split on the byte \"/\" before its segments are decoded: any name sent encoded comes back whole",
        arguments: [
            ("/api/playlists/x%2Fy", "x/y"), ("/api/playlists/a%3Fb%23c", "a?b#c"), ("/api/playlists/a%2F%CC%81b", "a/\u{301}b"),
            ("/api/playlists/a/\u{301}b", "404"), ("/api/playlists/caf%C3%A9", "café"), ("/api/playlists/100%25", "100%"),
            ("/api/playlists/morning%20run", "morning run"), ("/api/playlists/%FF", "%FF"), ("/api/playlists/x/y", "404"),
        ])
    func encodedNames(_ path: String, _ name: String) {
        let segments = HTTPRequest(method: "GET", path: path).segments
        switch WebRoutes.router.match(method: "GET", segments: segments) {
        case .found(_, let parameters): #expect(parameters["name"] == name, "\(segments)")
        default: #expect(name == "404", "\(segments)")
        }
    }

    @Test(
        "Paths and methods to routes",
        arguments: [
            ("GET", "/", "GET /"), ("GET", "/pair", "GET /pair"), ("GET", "/api/alarms", "GET /api/alarms"),
            ("POST", "/api/alarms", "POST /api/alarms"), ("DELETE", "/api/alarms/9c41d2e0", "DELETE /api/alarms/{id} id=9c41d2e0"),
            ("PUT", "/api/alarms/9c41d2e0/voice", "PUT /api/alarms/{id}/voice id=9c41d2e0"),
            ("POST", "/api/clips/say", "POST /api/clips/say"), ("PUT", "/api/clips/say", "405 POST"),
            ("PUT", "/api/clips/3f2a9c1e", "PUT /api/clips/{id} id=3f2a9c1e"),
            ("GET", "/api/clips/../../etc/passwd", "404"), ("GET", "/api/playlists/morning", "GET /api/playlists/{name} name=morning"),
            ("HEAD", "/api/status", "GET /api/status"), ("GET", "/api/stop", "405 POST"), ("GET", "/etc/passwd", "404"),
            ("PATCH", "/api/alarms", "405 GET,POST"),
        ])
    func routes(_ method: String, _ path: String, _ named: String) {
        #expect(Self.named(method, path) == named)
    }

    @Test(
        "Only the page's own files, the authority, pairing and the session handshake are open; a change is never a GET; a body only where a route reads one"
    )
    func declarations() {
        #expect(
            GuardedRoutes.open.map { "\($0.0) \($0.1)" }.sorted()
                == ([
                    "GET /", "GET /api/authority", "GET /apple-touch-icon.png", "GET /authority.crt", "GET /authority.mobileconfig",
                    "GET /icon-192.png", "GET /icon-512.png", "GET /icon.svg", "GET /manifest.webmanifest", "GET /pair", "GET /style.css",
                    "GET /sw.js", "POST /api/pair", "POST /api/session",
                ] + PageAssets.modules.map { "GET \($0.path)" }).sorted())
        #expect(PageAssets.modules.map(\.path).allSatisfy { $0.hasSuffix(".mjs") }, "every module of the page, and only they")
        #expect(GuardedRoutes.all.allSatisfy { $0.1.hasPrefix("/api/") }, "everything of the library is behind the API's guard")
        for endpoint in WebRoutes.all {
            #expect(endpoint.changesState == (endpoint.method != "GET"), "\(endpoint.method) \(endpoint.path)")
            if endpoint.method == "GET" || endpoint.method == "DELETE" { #expect(endpoint.body == .none, "\(endpoint.method) \(endpoint.path)") }
        }
        #expect(GuardedRoutes.all.count + GuardedRoutes.open.count == WebRoutes.all.count)
    }
}
