import Foundation
import TestSupport
import Testing

/// The page's live state and its test ring through the real binary: `serve`, the terminal, and
/// the daemon ringing on a PulseAudio null sink whose monitor the test records.
@Suite("The page stays live, and rings an alarm on the bedside speaker on request", .serialized)
struct ServeLiveTests {
    /// A library with one recording on the manifesto, and `voicealarm` over it.
    struct Library {
        let folder = TemporaryDirectory("live")
        var data: String { folder.file("data") }

        @discardableResult
        func voicealarm(_ arguments: [String], environment: [String: String]? = nil) async throws -> String {
            let result = try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", data] + arguments, environment: environment)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        func withManifesto() async throws -> Library {
            let clip = try await voicealarm(["clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav", "-q"])
            try await voicealarm(["manifesto", "set", clip, "-q"])
            return self
        }
    }

    static func document(_ result: CurlResult) -> [String: Any] { result.json as? [String: Any] ?? [:] }
    static func alarmIDs(_ state: [String: Any]) -> [String] { (state["alarms"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } }

    @Test("An alarm added at the terminal answers a waiting page within 2 s; with nothing new the wait ends in a 204", .timeLimit(.minutes(2)))
    func terminalChangeReachesWaitingPage() async throws {
        let library = try await Library().withManifesto()
        let server = try await ServeProcess(dataDir: library.data)
        let browser = try await server.pairBrowser()
        let first = try await server.curl("GET", "/api/state", browser.curl)
        #expect(first.status == 200, "\(first.body)")
        let version = try #require(Self.document(first)["version"] as? String)
        for key in ["alarms", "clips", "playlists", "manifesto", "status", "devices", "serverTime"] {
            #expect(Self.document(first)[key] != nil, "the state holds \(key)")
        }

        let quiet = try await server.curl("GET", "/api/state?after=\(version)&wait=1", browser.curl)
        #expect(quiet.status == 204 && quiet.body.isEmpty, "nothing changed: \(quiet.status) \(quiet.body)")

        // The page waits; the terminal adds an alarm half a second into the wait.
        async let waited = server.curl("GET", "/api/state?after=\(version)", browser.curl)
        await pause(0.5)
        let added = try await library.voicealarm(["alarm", "add", "manifesto", "--at", "06:45", "--days", "mon-fri", "-q"])
        let addedAt = ContinuousClock.now
        let answer = try await waited
        let took = ContinuousClock.now - addedAt
        #expect(answer.status == 200)
        #expect(Self.alarmIDs(Self.document(answer)).contains(added), "the new alarm is in the answer: \(answer.body.prefix(400))")
        #expect(took < .seconds(2), "answered \(took) after the terminal's change")
        #expect(Self.document(answer)["version"] as? String != version)
        _ = await server.stop()
    }

    @Test("Ring it here now with no daemon says what to do instead (409), and nothing is left asked", .timeLimit(.minutes(1)))
    func testRingWithoutDaemon() async throws {
        let library = try await Library().withManifesto()
        let alarm = try await library.voicealarm(["alarm", "add", "manifesto", "--at", "06:45", "--days", "mon", "-q"])
        let server = try await ServeProcess(dataDir: library.data)
        let browser = try await server.pairBrowser()
        let refused = try await server.curl("POST", "/api/alarms/\(alarm)/ring", browser.curl)
        #expect(refused.status == 409)
        let message = ((Self.document(refused)["error"] as? [String: Any])?["message"] as? String) ?? ""
        #expect(message.contains("No alarm service runs") && message.contains("Listen plays this alarm"), "\(message)")
        #expect(!message.contains("voicealarm ") && !message.contains("--") && !message.contains(alarm.prefix(8)), "the phone's words: \(message)")
        #expect(!FileManager.default.fileExists(atPath: "\(library.data)/test-ring/asked.json"))
        let unknown = try await server.curl("POST", "/api/alarms/ffffffff/ring", browser.curl)
        #expect(unknown.status == 404, "\(unknown.status) \(unknown.body)")
        _ = await server.stop()
    }

    @Test(
        "Ring it here now: the daemon rings the alarm's voice on the speaker for 10 s, the status shows a test ring with its start, then names the device",
        .timeLimit(.minutes(2)))
    func testRingThroughDaemon() async throws {
        let pulse = try await PulseServer()
        let library = try await Library().withManifesto()
        let alarm = try await library.voicealarm(["alarm", "add", "manifesto", "--at", "06:45", "--days", "mon", "--snooze", "5", "-q"])
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        daemon.arguments = ["--default-signal=INT,TERM", ProjectPaths.binary, "--data-dir", library.data, "daemon"]
        daemon.environment = pulse.environment
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        defer { if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) } }
        let server = try await ServeProcess(dataDir: library.data)
        let browser = try await server.pairBrowser()
        #expect(await eventually(within: 20, every: 0.2) { FileManager.default.fileExists(atPath: "\(library.data)/test-ring") }, "the daemon watches")

        var ringing: [String: Any] = [:]
        var finished: [String: Any] = [:]
        let asked = ContinuousClock.now
        var heardFrom: Duration?
        let samples = try await pulse.recording {
            let answer = try await server.curl("POST", "/api/alarms/\(alarm)/ring", browser.curl)
            #expect(answer.status == 202, "\(answer.body)")
            #expect((Self.document(answer)["testRing"] as? [String: Any])?["state"] as? String == "asked")
            // The page's view of it: the state while it rings, then once it ended.
            var version = ""
            while ContinuousClock.now - asked < .seconds(40) {
                let state = try await server.curl("GET", "/api/state" + (version.isEmpty ? "" : "?after=\(version)&wait=5"), browser.curl)
                guard state.status == 200 else { continue }
                let document = Self.document(state)
                version = document["version"] as? String ?? ""
                let status = document["status"] as? [String: Any] ?? [:]
                let rings = status["ringing"] as? [[String: Any]] ?? []
                if let ring = rings.first, ringing.isEmpty {
                    ringing = ring
                    heardFrom = ContinuousClock.now - asked
                    // A test is stopped, never snoozed, though its alarm has a snooze.
                    let snoozed = try await server.curl("POST", "/api/snooze", browser.curl)
                    #expect(snoozed.status == 409 && snoozed.body.contains("rings as a test"), "\(snoozed.status) \(snoozed.body)")
                }
                if let test = status["testRing"] as? [String: Any], ["rang", "failed"].contains(test["state"] as? String) {
                    finished = test
                    break
                }
            }
        }
        #expect(ringing["alarm"] as? String == alarm && ringing["test"] as? Bool == true, "\(ringing)")
        #expect(ringing["since"] is String, "the ring's start tells it from the one before")
        #expect(ringing["snooze"] is NSNull, "no Snooze on the banner of a test ring: \(ringing)")
        #expect(heardFrom.map { $0 < .seconds(3) } == true, "the banner's ring came \(String(describing: heardFrom)) after the ask")
        #expect(finished["state"] as? String == "rang", "\(finished)")
        #expect(finished["device"] as? String == "default" && finished["sound"] as? String == "voice", "\(finished)")
        #expect(((finished["seconds"] as? Double) ?? 0) >= 9.5, "\(finished)")
        // The speaker played it: about 10 s above silence on the null sink's monitor.
        let loud = samples.chunked(44_100 / 10).filter { chunk in chunk.map { abs(Int($0)) }.max() ?? 0 > 300 }.count
        #expect((85...115).contains(loud), "tenths of a second with sound on the speaker: \(loud)")
        _ = await server.stop()
    }
}

extension Array {
    /// The array in consecutive pieces of `size` (the last may be shorter).
    fileprivate func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
