import Foundation
import Testing
import TestSupport

/// The page in a real browser: Debian's headless Chromium driven by selenium (`web_page.py`),
/// its microphone a known recording (Chromium's fake capture), against the real server.
@Suite("The web page in a real browser")
struct WebPageTests {
    /// Runs a `web_page.py` scenario; its steps, by name. With `progress`, each step's name is
    /// appended to that file as the page reaches it (`WEB_PAGE_PROGRESS`).
    private func browse(_ scenario: String, _ link: String, microphone: String? = nil, progress: String? = nil) async throws -> [String: [String: Any]] {
        let out = ProjectPaths.testOutput
        var environment = ProcessInfo.processInfo.environment
        environment["WEB_PAGE_PROGRESS"] = progress
        let result = try await ProcessRunner.run(ProjectPaths.python, ["\(ProjectPaths.root)/Tests/Support/web_page.py", scenario, link, out] + (microphone.map { [$0] } ?? []),
                                                 environment: environment)
        let document = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any], "\(result.stderr)")
        let steps = document["steps"] as? [[String: Any]] ?? []
        #expect(document["ok"] as? Bool == true, "\(scenario): \(steps) \(result.stderr.suffix(500))")
        return Dictionary(steps.map { ($0["step"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
    }

    @Test("From a 360 px phone over HTTPS: a wrong code refused, then pair, record from the microphone, make a playlist, set an alarm, switch the voice off, listen, add and remove an alarm",
          .timeLimit(.minutes(2)))
    func phone() async throws {
        let folder = TemporaryDirectory("page")
        // The page names the data dir (no daemon runs for it): a folder's name with nowhere to
        // break a line, as a checkout's or a home's path can be, must not widen the page.
        let data = folder.file("VoiceAlarmLibraryInAFolderWhoseNameIsLongerThanAPhoneIsWide")
        let microphone = folder.file("microphone.wav")
        try await ProcessRunner.mustRun("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", "\(ProjectPaths.sampleAudio)/kind.ogg", "-ac", "1", "-ar", "48000", microphone])
        let server = try await ServeProcess(dataDir: data, arguments: ["--listen", "127.0.0.1:0", "--https"])
        let steps = try await browse("phone", server.link, microphone: microphone)
        #expect(server.url.hasPrefix("https://"))
        #expect((steps["wrong code"]?["message"] as? String)?.contains("not right") == true)
        #expect(steps["pairing page"]?["prefilled"] as? String == server.code)
        #expect(steps["pairing page"]?["address"] as? String == "\(server.url)/pair", "the code leaves the address bar")
        let fits = steps["fits"] ?? [:]
        #expect(fits["pageWidth"] as? Int == 360 && fits["screenWidth"] as? Int == 360, "the page, long paths and all, fits the phone: \(fits)")
        // The refresh the import started was answered after the playlist was made (the script holds
        // that answer back): the page drew its newer answer and kept it.
        let late = steps["late answer"]?["playlists"] as? String ?? ""
        #expect(late.contains("morning") && late.contains("From my phone"), "an older answer painted over the new playlist: \(late)")
        #expect((steps["recorded"]?["peakLevel"] as? Double ?? 0) > 0.05, "the level meter moved")
        #expect(steps["screenshot"]?["width"] as? Int == 360 && steps["screenshot"]?["overflows"] as? Bool == false)
        #expect(FileManager.default.fileExists(atPath: "\(ProjectPaths.testOutput)/alarms-360px.png"))
        #expect(steps["accessibility"]?["unnamed"] as? [String] == [], "every control has a name a screen reader says")
        #expect(steps["switch"]?["checked"] as? Bool == true && (steps["switch"]?["label"] as? String)?.contains("Wake up to my voice") == true)
        #expect((steps["switch"]?["alarm"] as? String)?.contains("Your voice") == true, "the alarm was built on the recording before its voice went off")
        // The library, read by the command line: the recording is the microphone's sound.
        let clips = try #require(try JSONSerialization.jsonObject(with: Data(try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", data, "--json", "clip", "list"]).stdout.utf8)) as? [[String: Any]])
        let clip = try #require(clips.first { $0["title"] as? String == "From my phone" })
        let path = try #require(clip["path"] as? String)
        let similarity = try await IndependentMeasure.similarity(path, toLooped: microphone, seconds: 3)
        #expect(similarity > 0.9, "the clip is what the microphone heard: \(similarity)")
        let other = try await IndependentMeasure.similarity(path, toLooped: "\(ProjectPaths.sampleAudio)/calm.wav", seconds: 3)
        #expect(other < 0.4, "and not any speech: \(other)")
        // The alarm the page set, and its voice switched off: the voice file is gone.
        let alarms = try #require(try JSONSerialization.jsonObject(with: Data(try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", data, "--json", "alarm", "list"]).stdout.utf8)) as? [[String: Any]])
        let alarm = try #require(alarms.first)
        #expect(alarm["time"] as? String == "07:30" && alarm["target"] as? String == "morning" && alarm["days"] as? [String] == ["mon", "tue", "wed", "thu", "fri"])
        #expect(alarm["voice"] as? Bool == false && alarm["sound"] as? String == "default")
        let id = try #require(alarm["id"] as? String)
        #expect(!((try? FileManager.default.contentsOfDirectory(atPath: "\(data)/Sounds")) ?? []).contains { $0.hasPrefix(id) }, "the voice file is deleted")
        #expect(server.stderr.contains("PUT /api/alarms/\(id)/voice 200"))
        // Audio comes through the page's session, then plays from memory: the clip, whole.
        #expect((steps["listened"]?["src"] as? String)?.hasPrefix("blob:") == true && steps["listened"]?["error"] is NSNull,
                "the phone played the clip: \(steps["listened"] ?? [:])")
        #expect(server.stderr.contains("GET /api/clips/\(clip["id"] as? String ?? "")/audio 200"))
        #expect(abs((steps["listened"]?["duration"] as? Double ?? 0) - (clip["duration"] as? Double ?? -9)) < 0.1, "\(steps["listened"] ?? [:]) vs \(clip)")
        #expect((steps["removed"]?["question"] as? String) == "Remove the alarm at 08:15?")
        #expect(alarms.count == 1, "the second alarm was removed from the page")
        _ = await server.stop()
    }

    @Test("Snooze, then Stop, on the page end rings playing into the sound server", .timeLimit(.minutes(2)))
    func snoozeAndStopFromThePhone() async throws {
        let pulse = try await PulseServer()
        let folder = TemporaryDirectory("page")
        let progress = folder.file("progress")
        let data = folder.file("data")
        func voicealarm(_ arguments: [String]) async throws -> String {
            let result = try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", data] + arguments, environment: pulse.environment)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let clip = try await voicealarm(["clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav", "-q"])
        _ = try await voicealarm(["manifesto", "set", clip, "-q"])
        let id = try await voicealarm(["alarm", "add", "manifesto", "--at", "07:00", "--snooze", "9", "-q"])
        let server = try await ServeProcess(dataDir: data, environment: pulse.environment)
        func ring() throws -> (Process, Pipe) {
            let ring = Process()
            ring.executableURL = URL(fileURLWithPath: ProjectPaths.binary)
            ring.arguments = ["--data-dir", data, "ring", id, "--max-seconds", "90"]
            ring.environment = pulse.environment
            let err = Pipe()
            ring.standardError = err
            ring.standardOutput = FileHandle.nullDevice
            try ring.run()
            return (ring, err)
        }
        var steps: [String: [String: Any]] = [:]
        var snoozedUntil: Any?
        let heard = try await pulse.recording {
            let (first, _) = try ring()
            async let browsed = browse("stop", server.link, progress: progress)
            _ = await first.ended()
            #expect(first.terminationStatus == 0)
            let alarms = try JSONSerialization.jsonObject(with: Data(try await voicealarm(["--json", "alarm", "list"]).utf8)) as? [[String: Any]]
            snoozedUntil = alarms?.first?["snoozedUntil"]
            // The second ring once the page has shown the first one over (it polls the status).
            let ended = await eventually(within: 60, every: 0.1) {
                ((try? String(contentsOfFile: progress, encoding: .utf8)) ?? "").split(separator: "\n").contains("ring ended")
            }
            #expect(ended, "the page showed the snoozed ring ended: \((try? String(contentsOfFile: progress, encoding: .utf8)) ?? "")")
            let (second, err) = try ring()
            _ = await second.ended()
            #expect(second.terminationStatus == 0)
            #expect(String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).contains("(stopped)"))
            steps = try await browsed
        }
        #expect(steps["ringing shown"]?["snooze"] as? Bool == true, "Snooze shows for an alarm set with one")
        #expect((steps["snoozed"]?["message"] as? String)?.contains("rings again") == true)
        #expect(snoozedUntil is String, "the page's Snooze left a snoozed ring waiting: \(String(describing: snoozedUntil))")
        #expect(steps["stopped"] != nil)
        let after = try JSONSerialization.jsonObject(with: Data(try await voicealarm(["--json", "alarm", "list"]).utf8)) as? [[String: Any]]
        #expect(after?.first?["snoozedUntil"] is NSNull, "Stop cancelled the waiting snooze")
        #expect(IndependentMeasure.rmsDB(heard[...]) > -40, "the speaker played the rings")
        #expect(server.stderr.contains("POST /api/snooze 200") && server.stderr.contains("POST /api/stop 200"))
        _ = await server.stop()
    }
}
