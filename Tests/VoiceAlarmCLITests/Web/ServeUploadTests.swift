import Foundation
import TestSupport
import Testing

/// Recordings uploaded to the real server: too large, not audio, too long, or cut off midway.
@Suite("voicealarm serve: uploads")
struct ServeUploadTests {
    @Test("Uploads: one too large is refused before it is read, garbage as not audio; nothing is half-imported", .timeLimit(.minutes(1)))
    func uploads() async throws {
        let folder = TemporaryDirectory("serve")
        let data = folder.file("data")
        let server = try await ServeProcess(dataDir: data)
        let browser = try await server.pairBrowser()
        let large = folder.file("large.wav")
        #expect(FileManager.default.createFile(atPath: large, contents: nil))
        try FileHandle(forWritingTo: URL(fileURLWithPath: large)).truncate(atOffset: 101 * 1024 * 1024)  // sparse: 101 MB read as zeros
        let tooLarge = try await server.curl("POST", "/api/clips", browser.curl + ["-T", large])
        #expect(tooLarge.status == 413, "\(tooLarge.stderr)")
        // The same without a declared length (chunked): refused as soon as it passes the limit.
        let chunked = try await server.curl("POST", "/api/clips", browser.curl + ["-H", "Transfer-Encoding: chunked", "-T", large])
        #expect(chunked.status == 413, "\(chunked.status) \(chunked.stderr)")
        #expect(await server.logged("POST /api/clips 413", times: 2), "both answered 413: \(server.stderr.suffix(400))")
        let garbage = folder.file("garbage.m4a")
        try Data(repeating: 0x5A, count: 200_000).write(to: URL(fileURLWithPath: garbage))
        let refused = try await server.curl("POST", "/api/clips?title=Garbage", browser.curl + ["--data-binary", "@\(garbage)"])
        #expect(refused.status == 422)
        let error = try #require((refused.json as? [String: Any])?["error"] as? [String: Any])
        #expect(error["code"] as? Int == 1 && (error["message"] as? String)?.isEmpty == false)
        let imported = try await server.curl("POST", "/api/clips?title=Kind", browser.curl + ["--data-binary", "@\(ProjectPaths.sampleAudio)/kind.ogg"])
        #expect(imported.status == 201)
        // A phone's player asks for byte ranges: the part asked, as the file holds it.
        let clip = try #require(imported.json as? [String: Any])
        let stored = try Data(contentsOf: URL(fileURLWithPath: try #require(clip["path"] as? String)))
        let part = folder.file("part")
        let ranged = try await ProcessRunner.run(
            "/usr/bin/curl",
            ["-s", "-o", part, "-w", "%{http_code}", "-r", "100-1099", "--cacert", server.authorityFile] + browser.curl + [
                "\(server.url)/api/clips/\(clip["id"] as? String ?? "")/audio"
            ])
        #expect(ranged.stdout == "206")
        #expect(try Data(contentsOf: URL(fileURLWithPath: part)) == stored[100..<1100])
        let beyond = try await server.curl(
            "GET", "/api/clips/\(clip["id"] as? String ?? "")/audio", browser.curl + ["-r", "\(stored.count)-", "-o", "/dev/null"])
        #expect(beyond.status == 416 && beyond.headers["content-range"] == "bytes */\(stored.count)")
        let clips = try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", data, "--json", "clip", "list"])
        #expect((try JSONSerialization.jsonObject(with: Data(clips.stdout.utf8)) as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["Kind"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(data)/uploads").isEmpty, "no upload left behind")
        _ = await server.stop()
    }

    @Test(
        "The server killed mid-upload: the library stays whole, the daemon rings on time, the next start clears the half upload",
        .timeLimit(.minutes(2)))
    func killedMidUpload() async throws {
        let lib = try RingLibrary()
        let clip = try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav", "-q"])
        _ = try await lib.ok(["manifesto", "set", clip, "-q"])
        let id = try await lib.ok(["alarm", "add", "manifesto", "--at", "07:00", "--days", "mon", "-q"])
        let daemon = try FakeTimeDaemon(lib, fakeStart: "2027-01-04 06:59:45")
        let server = try await ServeProcess(dataDir: lib.dataDir, environment: lib.devices.environment)
        let browser = try await server.pairBrowser()
        // Six seconds of audio sent at 64 KB/s: about 16 s of upload, cut short.
        let big = lib.dir.file("long.wav")
        try await ProcessRunner.mustRun("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=f=440:d=6", "-ar", "44100", "-ac", "2", big])
        let upload = Process()
        upload.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        upload.arguments =
            ["-s", "-X", "POST", "--limit-rate", "64k", "--cacert", server.authorityFile, "-H", "Origin: \(server.url)"] + browser.curl + [
                "--data-binary", "@\(big)", "\(server.url)/api/clips",
            ]
        upload.standardOutput = FileHandle.nullDevice
        upload.standardError = FileHandle.nullDevice
        try upload.run()
        let uploads = "\(lib.dataDir)/uploads"
        for _ in 0..<100 where ((try? FileManager.default.contentsOfDirectory(atPath: uploads)) ?? []).isEmpty { await pause(0.05) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: uploads).count == 1, "the upload is arriving")
        await server.kill()
        _ = await upload.ended()
        #expect(upload.terminationStatus != 0, "the client saw the server go")
        #expect(await daemon.waitForEvent("stopped alarm \(id)"), "the daemon rings without the server")
        let (status, stderr) = await daemon.stop()
        #expect(status == 0, "\(stderr)")
        #expect(stderr.contains("Ringing alarm \(id) (due 2027-01-04T07:00:00+00:00)"))
        let clips = try await lib.ok(["clip", "list", "--json"])
        #expect((try JSONSerialization.jsonObject(with: Data(clips.utf8)) as? [[String: Any]])?.count == 1, "nothing half-imported")
        let restarted = try await ServeProcess(dataDir: lib.dataDir, environment: lib.devices.environment)
        #expect(try FileManager.default.contentsOfDirectory(atPath: uploads).isEmpty, "the half upload is gone")
        _ = await restarted.stop()
    }

    @Test("A recording over 10 minutes is refused from its header; nothing is imported", .timeLimit(.minutes(1)))
    func tenMinutes() async throws {
        let folder = TemporaryDirectory("serve")
        let server = try await ServeProcess(dataDir: folder.file("data"))
        let browser = try await server.pairBrowser()
        let long = folder.file("long.wav")
        try await ProcessRunner.mustRun("/usr/bin/sox", ["-n", "-r", "8000", "-c", "1", long, "synth", "601", "sine", "440", "vol", "0.3"])
        let refused = try await server.curl("POST", "/api/clips", browser.curl + ["--data-binary", "@\(long)"])
        #expect(refused.status == 422)
        let message = ((refused.json as? [String: Any])?["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(message.contains("10 minutes"), "\(message)")
        let clips = try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", folder.file("data"), "--json", "clip", "list"])
        #expect(clips.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        _ = await server.stop()
    }

    @Test(
        "A full disk: the upload is answered 507 with a sentence and no path, and nothing is half kept",
        .timeLimit(.minutes(1)), arguments: [256 * 1024, 1_300 * 1024])
    func fullDisk(free: Int) async throws {
        let disk = try await SmallDisk(bytes: 8 * 1024 * 1024)
        let data = disk.file("data")
        let server = try await ServeProcess(dataDir: data)
        let browser = try await server.pairBrowser()
        // Seven seconds of stereo WAV (1.2 MB): with 256 KB free the upload itself cannot be kept;
        // with 1.3 MB free it is, and the library's own copy of it then finds no room.
        let folder = TemporaryDirectory("serve")
        let recording = folder.file("take.wav")
        try await ProcessRunner.mustRun(
            "/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "anoisesrc=d=7:a=0.3", "-ar", "44100", "-ac", "2", recording])
        let used = try FileManager.default.attributesOfFileSystem(forPath: disk.path)
        let left = (used[.systemFreeSize] as? Int ?? 0) - free
        try await ProcessRunner.mustRun("/usr/bin/fallocate", ["-l", String(left), disk.file("filler")])
        let answer = try await server.curl("POST", "/api/clips?title=Full", browser.curl + ["--data-binary", "@\(recording)"])
        #expect(answer.status == 507, "\(answer.status) \(answer.body)")
        let error = try #require((answer.json as? [String: Any])?["error"] as? [String: Any], "\(answer.body)")
        let message = error["message"] as? String ?? ""
        #expect(message.contains("full") && message.hasSuffix("."), "a sentence for a person: \(message)")
        #expect(
            !answer.body.contains("/") && !answer.body.contains("tmp") && !answer.body.contains("code -28"),
            "no path, temporary name or code: \(answer.body)")
        try FileManager.default.removeItem(atPath: disk.file("filler"))
        let clips = try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", data, "--json", "clip", "list"])
        #expect(clips.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "nothing imported")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(data)/clips").isEmpty, "no half copy")
        #expect(await eventually(within: 5) { (try? FileManager.default.contentsOfDirectory(atPath: "\(data)/uploads"))?.isEmpty == true })
        _ = await server.stop()
    }
}
