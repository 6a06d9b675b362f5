import Foundation
import TestSupport
import Testing

/// A library of one clip, one alarm and one paired browser, served by the real binary.
private struct OneOfEach {
    let folder = TemporaryDirectory("wildcard")
    var dataDir: String { folder.file("data") }
    let clip: String
    let alarm: String
    let server: ServeProcess
    let browser: PairedBrowser

    init() async throws {
        let dataDir = folder.file("data")
        func ok(_ arguments: [String]) async throws -> String {
            let result = try await voicealarm(["--data-dir", dataDir] + arguments)
            guard result.status == 0 else { throw TestSupportError("\(arguments) failed (\(result.status)): \(result.stderr)") }
            return result.stdout.trimmingCharacters(in: .newlines)
        }
        clip = try await ok(["clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav", "-q"])
        alarm = try await ok(["alarm", "add", "manifesto", "--at", "06:00", "--days", "mon", "-q"])
        server = try await ServeProcess(dataDir: dataDir)
        browser = try await server.pairBrowser()
    }

    /// curl's arguments that present the paired browser's credential (the one place that knows how).
    var credential: [String] { browser.curl }

    /// The ids `voicealarm --json LIST` prints (`clip list`, `alarm list`, `serve devices`).
    func ids(_ list: [String]) async throws -> [String] {
        let result = try await voicealarm(["--data-dir", dataDir, "--json"] + list)
        let items = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        return items.compactMap { $0["id"] as? String }
    }
}

@Suite("Ids of wildcard characters, or of 60,000 characters, name nothing", .timeLimit(.minutes(1)))
struct WildcardIDTests {
    /// A request whose id is no id, and what it must leave: every clip, alarm and device there.
    enum Attack: String, CaseIterable, Sendable {
        case removeAlarmByPercents, clipAudioByUnderscores, revokeDeviceByPercents, removeAlarmByLongID, clipAudioByLongID

        var request: (method: String, path: String) {
            let long = String(repeating: "a", count: 60_000)
            return switch self {
            case .removeAlarmByPercents: ("DELETE", "/api/alarms/%25%25%25%25%25%25%25%25")
            case .clipAudioByUnderscores: ("GET", "/api/clips/________/audio")
            case .revokeDeviceByPercents: ("DELETE", "/api/devices/%25%25%25%25%25%25%25%25")
            case .removeAlarmByLongID: ("DELETE", "/api/alarms/\(long)")
            case .clipAudioByLongID: ("GET", "/api/clips/\(long)/audio")
            }
        }
    }

    @Test(
        "Through the real server: refused as not an id with the error object (400); nothing removed, nothing served",
        arguments: Attack.allCases)
    func web(_ attack: Attack) async throws {
        let lib = try await OneOfEach()
        let (method, path) = attack.request
        let answer = try await lib.server.curl(method, path, lib.credential)
        #expect(answer.status == 400, "\(answer.status) \(answer.body.prefix(300))")
        #expect(answer.headers["content-type"]?.hasPrefix("application/json") == true)
        let error = try #require((answer.json as? [String: Any])?["error"] as? [String: Any], "\(answer.body.prefix(300))")
        let message = try #require(error["message"] as? String)
        #expect(message.contains("': not an id (ids are hexadecimal"), "\(message)")
        #expect(message.count < 200 && !message.contains(lib.dataDir), "bounded, and naming no file of the machine: \(message)")
        #expect(error["code"] as? Int == 1)
        #expect(try await lib.ids(["clip", "list"]) == [lib.clip])
        #expect(try await lib.ids(["alarm", "list"]) == [lib.alarm])
        #expect(try await lib.ids(["serve", "devices"]).count == 1)
        #expect(try await lib.server.curl("GET", "/api/alarms", lib.credential).status == 200, "the browser is still paired")
        _ = await lib.server.stop()
    }

    @Test("serve revoke of wildcards is refused as not an id (exit 1); the device stays paired")
    func revoke() async throws {
        let lib = try await OneOfEach()
        for reference in ["________", "%%%%%%%%"] {
            let result = try await voicealarm(["--data-dir", lib.dataDir, "serve", "revoke", reference])
            #expect(result.status == 1 && result.stdout.isEmpty)
            #expect(result.stderr == "error: '\(reference)': not an id (ids are hexadecimal, as 'serve devices' prints them)\n")
        }
        #expect(try await lib.ids(["serve", "devices"]).count == 1)
        #expect(try await lib.server.curl("GET", "/api/alarms", lib.credential).status == 200)
        _ = await lib.server.stop()
    }
}
