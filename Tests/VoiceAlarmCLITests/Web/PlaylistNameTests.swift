import Foundation
import TestSupport
import Testing

/// Playlist names that hold "/", "?", "#" or a combining mark after "/", through the real server
/// and the command line: each is made, read, renamed and deleted by its encoded name.
@Suite("voicealarm serve: any playlist name can be reached again")
struct PlaylistNameTests {
    @Test("Made by the API or the command line, read, renamed and deleted through the API", .timeLimit(.minutes(1)), arguments: ["x/y", "a?b#c", "a/\u{301}b"])
    func roundTrip(_ name: String) async throws {
        let folder = TemporaryDirectory("serve")
        let data = folder.file("data")
        let server = try await ServeProcess(dataDir: data)
        let browser = try await server.pairBrowser()
        let json = browser.curl + ["-H", "Content-Type: application/json"]
        func encoded(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text }
        func body(_ fields: [String: Any]) throws -> String { String(decoding: try JSONSerialization.data(withJSONObject: fields), as: UTF8.self) }
        let made = try await server.curl("POST", "/api/playlists", json + ["-d", try body(["name": name, "clips": []])])
        #expect(made.status == 201, "\(made.status) \(made.body)")
        let cli = try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", data, "playlist", "create", name + " too"])
        #expect(cli.status == 0, "\(cli.stderr)")
        for made in [name, name + " too"] {
            let shown = try await server.curl("GET", "/api/playlists/\(encoded(made))", browser.curl)
            #expect(shown.status == 200 && (shown.json as? [String: Any])?["name"] as? String == made, "\(made): \(shown.status) \(shown.body)")
        }
        let renamed = try await server.curl("PUT", "/api/playlists/\(encoded(name))", json + ["-d", try body(["name": name + "!"])])
        #expect(renamed.status == 200 && (renamed.json as? [String: Any])?["name"] as? String == name + "!", "\(renamed.status) \(renamed.body)")
        for gone in [name + "!", name + " too"] {
            let deleted = try await server.curl("DELETE", "/api/playlists/\(encoded(gone))", browser.curl)
            #expect(deleted.status == 200, "\(gone): \(deleted.status) \(deleted.body)")
        }
        let list = try await server.curl("GET", "/api/playlists", browser.curl)
        #expect((list.json as? [[String: Any]])?.isEmpty == true, "\(list.body)")
        _ = await server.stop()
    }
}
