import Foundation
import TestSupport
import Testing

/// A microphone for a child process: ALSA's file plugin reading `infile` (a file, or a named
/// pipe the test feeds at its own pace, so the recorder sees a live microphone).
///
/// alsa-lib's file plugin ignores a short `read()` from its infile (the rest of the period stays
/// stale), so audio that must arrive intact is written into the pipe — enlarged to 1 MB — before
/// the recorder reads it.
final class TestMicrophone: @unchecked Sendable {
    let dir = TemporaryDirectory("mic")
    var config: String { dir.file("asound.conf") }
    var fifo: String { dir.file("mic.fifo") }
    var dataDir: String { dir.file("data") }
    /// Two seconds of speech at 48 kHz, made by the ffmpeg CLI.
    let speech: [Int16]
    private var feeder: FileHandle?
    /// Feeds silence in real time on a queue of its own (`feedLive`) until `stop`.
    private var live: (any DispatchSourceTimer)?

    init(infile: [Int16]? = nil) async throws {
        speech = try await IndependentMeasure.decodedSamples("\(ProjectPaths.sampleAudio)/strong.flac", rate: 48_000)
        let path: String
        if let infile {
            path = dir.file("mic.raw")
            try infile.withUnsafeBufferPointer { Data(buffer: $0) }.write(to: URL(fileURLWithPath: path))
        } else {
            path = fifo
            mkfifo(fifo, 0o600)
            // Read-write, so neither side blocks on open.
            feeder = FileHandle(forUpdatingAtPath: fifo)
            let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ, which Glibc does not export
            _ = fcntl(feeder!.fileDescriptor, setPipeSize, 1 << 20)
            // Never blocking: a write the pipe has no room for is dropped (see `feed`).
            _ = fcntl(feeder!.fileDescriptor, F_SETFL, fcntl(feeder!.fileDescriptor, F_GETFL) | O_NONBLOCK)
        }
        try """
        pcm.nullsink { type null }
        pcm.!default { type file slave.pcm "nullsink" file "/dev/null" infile "\(path)" format "raw" }
        """.write(toFile: config, atomically: true, encoding: .utf8)
    }

    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["ALSA_CONFIG_PATH"] = config
        return environment
    }

    /// Writes `samples` into the pipe without waiting: what the pipe has no room for (1 MB, ten
    /// seconds the recorder has not read) is dropped. Audio that must arrive intact (two seconds of
    /// speech) is written before the recorder starts, into an empty pipe.
    func feed(_ samples: [Int16]) {
        guard let feeder else { return }
        samples.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let wrote = write(feeder.fileDescriptor, bytes.baseAddress! + offset, bytes.count - offset)
                guard wrote > 0 else { return }  // EAGAIN: full
                offset += wrote
            }
        }
    }

    /// Puts the speech in the pipe at once, then feeds silence about in real time, until stopped:
    /// a timer on a queue of its own, so no thread sleeps between writes.
    func feedLive() {
        feed(speech)
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "test-microphone"))
        timer.schedule(deadline: .now() + 0.1, repeating: 0.1)
        timer.setEventHandler { [self] in feed([Int16](repeating: 0, count: 4800)) }
        timer.resume()
        live = timer
    }

    func stop() { live?.cancel() }

    func run(_ arguments: [String]) async throws -> ProcessResult {
        try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", dataDir] + arguments, environment: environment)
    }

    /// Seconds of audio in the one take file being written, when there is one.
    func takeSeconds() -> Double? {
        let takes = "\(dataDir)/takes"
        guard let name = (try? FileManager.default.contentsOfDirectory(atPath: takes))?.first(where: { $0.hasSuffix(".wav") }),
            let size = (try? FileManager.default.attributesOfItem(atPath: "\(takes)/\(name)"))?[.size] as? Int
        else { return nil }
        return Double(size - 44) / 96_000
    }
}

@Suite("voicealarm clip record, through ALSA's file plugin", .serialized)
struct RecordCommandTests {
    @Test("A take enters the library as a clip whose audio matches the source")
    func recordsAClip() async throws {
        let mic = try await TestMicrophone(infile: nil)
        mic.feedLive()
        defer { mic.stop() }
        let result = try await mic.run(["clip", "record", "--max-seconds", "3", "--title", "I am strong"])
        #expect(result.status == 0, "\(result.stderr)")
        let id = result.stdout.trimmingCharacters(in: .newlines)
        #expect(result.stderr.contains("Recorded 3.0 s") && result.stderr.contains("0 overruns") && result.stderr.contains("Saved as clip \(id)"))
        let clips = try await JSONSerialization.jsonObject(with: Data(mic.run(["clip", "list", "--json"]).stdout.utf8)) as! [[String: Any]]
        #expect(clips.count == 1 && clips[0]["title"] as? String == "I am strong")
        let stored = try await IndependentMeasure.decodedSamples(clips[0]["path"] as! String, rate: 48_000)
        #expect(abs(stored.count - 3 * 48_000) < 10)
        #expect(correlation(stored, Array(mic.speech.prefix(stored.count))) > 0.99)
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(mic.dataDir)/takes").isEmpty, "the take is removed once stored")
    }

    /// SIGINT is not sent here: a non-interactive shell (as CI runs) starts the test runner with
    /// SIGINT ignored, children inherit that, and an inherited-ignored SIGINT never reaches the
    /// recorder's handler. SIGTERM goes through the same handler.
    @Test(
        "SIGTERM and SIGKILL mid-take keep what was captured", .timeLimit(.minutes(1)),
        arguments: [SIGTERM, SIGKILL])
    func signals(_ signalNumber: Int32) async throws {
        let mic = try await TestMicrophone(infile: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ProjectPaths.binary)
        process.arguments = ["--data-dir", mic.dataDir, "clip", "record", "--title", "interrupted"]
        process.environment = mic.environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        mic.feed(Array(mic.speech.prefix(2 * 48_000)))
        try process.run()
        // Wait until about two seconds are in the take file, then signal.
        for _ in 0..<1000 where (mic.takeSeconds() ?? 0) < 1.9 { await pause(0.01) }
        kill(process.processIdentifier, signalNumber)
        // Keep the microphone going (silence) so a blocked read returns and the stop is seen;
        // never wait forever on a recorder that does not stop.
        for _ in 0..<100 where process.isRunning {
            mic.feed([Int16](repeating: 0, count: 4800))
            await pause(0.1)
        }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            Issue.record("the recorder did not stop within 10 s of signal \(signalNumber)")
        }
        await process.ended()
        if signalNumber == SIGKILL {
            let takes = "\(mic.dataDir)/takes"
            let names = try FileManager.default.contentsOfDirectory(atPath: takes)
            #expect(names.count == 1)
            let samples = try await IndependentMeasure.decodedSamples("\(takes)/\(names[0])")
            #expect(samples.count >= Int(1.8 * 48_000), "a valid WAV with what was captured: \(samples.count) frames")
            #expect(correlation(Array(samples.prefix(48_000)), Array(mic.speech.prefix(48_000))) > 0.99)
        } else {
            #expect(process.terminationStatus == 0)
            let id = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .newlines)
            let clips = try await JSONSerialization.jsonObject(with: Data(mic.run(["clip", "list", "--json"]).stdout.utf8)) as! [[String: Any]]
            #expect(clips.first?["id"] as? String == id)
            let duration = clips.first?["duration"] as? Double ?? 0
            #expect(duration >= 1.9 && duration <= 2.8, "\(duration) s")
        }
    }

    @Test("--replace gives a clip the take and rebuilds its alarms; --playlist appends the new clip")
    func replaceAndPlaylist() async throws {
        let mic = try await TestMicrophone(infile: nil)
        mic.feedLive()
        defer { mic.stop() }
        let old = try await mic.run(["clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav", "-q"]).stdout.trimmingCharacters(in: .newlines)
        _ = try await mic.run(["playlist", "create", "morning", old, "-q"])
        let alarm = try await mic.run(["alarm", "add", "morning", "--at", "07:00", "--days", "mon", "-q"]).stdout.trimmingCharacters(in: .newlines)
        let sound = "\(mic.dataDir)/Sounds/\(alarm).m4a"
        let before = try Data(contentsOf: URL(fileURLWithPath: sound))

        let replaced = try await mic.run(["clip", "record", "--max-seconds", "2", "--replace", String(old.prefix(8))])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(replaced.stdout == old + "\n")
        #expect(replaced.stderr.contains("Rebuilt and re-scheduled alarms: \(alarm)"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: sound)) != before)
        let list = try await JSONSerialization.jsonObject(with: Data(mic.run(["alarm", "list", "--json"]).stdout.utf8)) as! [[String: Any]]
        #expect(list[0]["sound"] as? String == "\(alarm).m4a")

        let added = try await mic.run(["clip", "record", "--max-seconds", "1", "--playlist", "morning"])
        let new = added.stdout.trimmingCharacters(in: .newlines)
        let show = try await mic.run(["playlist", "show", "morning", "--json"]).stdout
        #expect(show.contains(old) && show.contains(new))
    }

    @Test("A silent take (a muted microphone) is refused; with --keep the take stays for a look", arguments: [false, true])
    func silentTake(_ keep: Bool) async throws {
        let mic = try await TestMicrophone(infile: [Int16](repeating: 0, count: 48_000 * 10))
        let result = try await mic.run(["clip", "record", "--max-seconds", "2"] + (keep ? ["--keep"] : []))
        #expect(result.status == 1)
        #expect(result.stderr.contains("error: the take is silent (is the microphone muted?)"))
        #expect(result.stdout.isEmpty)
        #expect(try await mic.run(["clip", "list", "--json"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(mic.dataDir)/takes").count == (keep ? 1 : 0))
    }

    @Test("Past 29 s a note says the ringtone will be trimmed; the whole take is kept; without a terminal, plain progress lines")
    func longTake() async throws {
        let speech = try await IndependentMeasure.decodedSamples("\(ProjectPaths.sampleAudio)/manifesto.flac", rate: 48_000)
        let mic = try await TestMicrophone(infile: speech + [Int16](repeating: 0, count: 48_000 * 5))
        let result = try await mic.run(["clip", "record", "--max-seconds", "31"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("note: past 29 s; the whole take is kept"))
        #expect(result.stderr.contains("recording: 30.0 s"))
        #expect(!result.stderr.contains("\u{1B}["), "no terminal codes without a terminal")
        let clips = try await JSONSerialization.jsonObject(with: Data(mic.run(["clip", "list", "--json"]).stdout.utf8)) as! [[String: Any]]
        #expect(clips.first?["duration"] as? Double == 31)
    }

    @Test("A device that does not exist, or a bad --replace / --playlist, is refused before anything is stored")
    func refusedBeforeRecording() async throws {
        let mic = try await TestMicrophone(infile: [Int16](repeating: 100, count: 48_000))
        for (arguments, message) in [
            (["--device", "no-such-mic"], "sound device 'no-such-mic'"),
            (["--replace", "ffffffff"], "no such clip"),
            (["--playlist", "nope"], "no such playlist"),
        ] {
            let result = try await mic.run(["clip", "record", "--max-seconds", "1"] + arguments)
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("error: ") && result.stderr.contains(message), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: "\(mic.dataDir)/takes")) ?? []).isEmpty)
        }
        #expect(try await mic.run(["clip", "record", "--rate", "fast"]).status == 64)
    }

    @Test("On a terminal: the meter shows levels and time, and Enter ends the take", .timeLimit(.minutes(1)))
    func meterAndEnter() async throws {
        let mic = try await TestMicrophone(infile: nil)
        mic.feedLive()
        defer { mic.stop() }
        let socket = "voicealarm-test-\(UUID().uuidString.prefix(8))"
        let command =
            "env ALSA_CONFIG_PATH='\(mic.config)' '\(ProjectPaths.binary)' --data-dir '\(mic.dataDir)' clip record --title pty --max-seconds 60; sleep 30"
        let quotedCommand = "'" + command.replacingOccurrences(of: "'", with: "'\\''") + "'"
        #expect(await ProcessRunner.runLeavingBackground("tmux -L \(socket) new-session -d -s rec -x 160 -y 12 \(quotedCommand)") == 0)
        defer { ProcessRunner.start("tmux", ["-L", socket, "kill-server"]) }
        func screen() async -> String { (try? await ProcessRunner.run("tmux", ["-L", socket, "capture-pane", "-p", "-t", "rec"]).stdout) ?? "" }
        var shown = ""
        for _ in 0..<200 {
            shown = await screen()
            if shown.contains("● REC") && shown.contains("peak") && shown.contains("rms") { break }
            await pause(0.05)
        }
        #expect(shown.contains("● REC") && shown.contains("dBFS") && shown.contains("s left"), "\(shown)")
        #expect(shown.contains("press Enter or Ctrl-C to stop"))
        await pause(1.5)
        #expect(try await ProcessRunner.run("tmux", ["-L", socket, "send-keys", "-t", "rec", "Enter"]).status == 0)
        var saved = ""
        for _ in 0..<200 {
            saved = await screen()
            if saved.contains("Saved as clip") { break }
            await pause(0.05)
        }
        #expect(saved.contains("Saved as clip"), "\(saved)")
        let clips = try await JSONSerialization.jsonObject(with: Data(mic.run(["clip", "list", "--json"]).stdout.utf8)) as! [[String: Any]]
        #expect(clips.first?["title"] as? String == "pty")
        #expect((clips.first?["duration"] as? Double ?? 0) < 10, "Enter stopped it well before --max-seconds")
    }
}
