import Foundation
import TestSupport
import Testing
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmHTTP

@testable import VoiceAlarmWeb

@Suite("The JSON API: the command line's rules, words and documents")
struct WebAPITests {
    /// A paired site with one clip (SampleAudio's 4 s 'kind') in playlist 'morning'.
    private func siteWithPlaylist() async throws -> (WebTestSite, String, String) {
        let site = try WebTestSite()
        let token = try await site.pairedToken()
        let service = try site.service()
        let clip = try service.clips.add("\(ProjectPaths.sampleAudio)/kind.ogg", title: "Kind")
        try service.playlists.create("morning", clips: [clip.idString])
        return (site, token, clip.idString)
    }

    @Test("Adding alarms: the document of 'alarm add --json', the backup tip, and the CLI's refusals word for word")
    func addAlarms() async throws {
        let (site, token, _) = try await siteWithPlaylist()
        let added = site.send(site.request("POST", "/api/alarms", device: token, json: #"{"target": "morning", "at": "06:45", "days": "mon-fri"}"#))
        #expect(added.status == 201)
        let document = try #require(added.json as? [String: Any])
        let alarm = try #require(document["alarm"] as? [String: Any])
        #expect(alarm["time"] as? String == "06:45" && alarm["voice"] as? Bool == true && alarm["days"] as? [String] == ["mon", "tue", "wed", "thu", "fri"])
        let notes = try #require(document["notes"] as? [String])
        #expect(notes.contains { $0.hasPrefix("Tip: this alarm has no snooze") && $0.contains("06:50") })
        // The same minute on a shared day: the core's rule, its words.
        let clash = site.send(site.request("POST", "/api/alarms", device: token, json: #"{"target": "morning", "at": "06:45", "days": "mon"}"#))
        #expect(clash.status == 409)
        let cli = try site.service()
        #expect(throws: (any Error).self) { try cli.alarms.add(on: .playlist("morning"), at: AlarmTime(hour: 6, minute: 45), days: [.monday]) }
        // Malformed fields: 400 naming the field, code 64 as the command line's usage errors.
        for (body, field, words) in [
            (#"{"target": "morning", "at": "25:00"}"#, "at", "'25:00' is not a time (HH:MM, 00:00 to 23:59)"),
            (#"{"target": "morning", "at": "07:00", "days": "fri-mon"}"#, "days", "fri-mon"),
            (#"{"target": "morning", "at": "07:00", "date": "2026-13-01"}"#, "date", "is not a date"),
            (#"{"target": "morning", "at": "07:00", "days": "mon", "date": "2027-01-01"}"#, "days", "exclude each other"),
            (#"{"target": "morning"}"#, "at", "no 'at'"),
            (#"{"target": "morning", "at": "07:00", "snooze": 99}"#, "snooze", "from 1 to 30"),
            (#"{"target": "morning", "at": 7}"#, "at", "wrong type"),
            ("not json", nil, "not JSON"),
        ] as [(String, String?, String)] {
            let refused = site.send(site.request("POST", "/api/alarms", device: token, json: body))
            #expect(refused.status == 400, "\(body)")
            let error = try #require((refused.json as? [String: Any])?["error"] as? [String: Any])
            #expect((error["message"] as? String)?.contains(words) == true, "\(body): \(error)")
            #expect(error["input"] as? String == field && error["code"] as? Int == 64, "\(body)")
        }
        // At most five per target.
        for minute in 0..<4 {
            #expect(site.send(site.request("POST", "/api/alarms", device: token, json: #"{"target": "morning", "at": "08:0\#(minute)"}"#)).status == 201)
        }
        let sixth = site.send(site.request("POST", "/api/alarms", device: token, json: #"{"target": "morning", "at": "09:00"}"#))
        #expect(sixth.status == 409)
        #expect(try site.service().alarms.statuses().count == 5)
    }

    @Test("The voice switch off deletes the voice file and Listen plays the standard sound; on builds it again")
    func voiceSwitch() async throws {
        let (site, token, _) = try await siteWithPlaylist()
        let added = site.send(site.request("POST", "/api/alarms", device: token, json: #"{"target": "morning", "at": "06:45"}"#))
        let id = try #require(((added.json as? [String: Any])?["alarm"] as? [String: Any])?["id"] as? String)
        let sound = try #require(((added.json as? [String: Any])?["alarm"] as? [String: Any])?["sound"] as? String)
        let voiceFile = try site.service().soundsDirectory + "/" + sound
        #expect(FileManager.default.fileExists(atPath: voiceFile))
        let voice = site.send(site.request("GET", "/api/alarms/\(id)/ringtone", device: token))
        #expect(voice.status == 200 && voice.headers.contains { $0.name == "X-VoiceAlarm-Sound" && $0.value == "voice" })
        let off = site.send(site.request("PUT", "/api/alarms/\(id.prefix(8))/voice", device: token, json: #"{"on": false}"#))
        #expect(off.status == 200 && (off.json as? [String: Any])?["voice"] as? Bool == false)
        #expect(!FileManager.default.fileExists(atPath: voiceFile))
        let standard = site.send(site.request("GET", "/api/alarms/\(id)/ringtone", device: token))
        #expect(standard.status == 200 && standard.headers.contains { $0.name == "X-VoiceAlarm-Sound" && $0.value == "standard" })
        guard case .file(path: let tone) = standard.body else {
            Issue.record("the standard sound is its file")
            return
        }
        #expect(try await IndependentMeasure.probe(tone).duration > 1, "ffprobe reads the standard sound")
        // In a format every browser plays: WAV, not the caf the rings use (which only Safari plays).
        #expect(
            tone.hasSuffix(".wav") && standard.headers.contains { $0.name == "Content-Type" && $0.value == "audio/wav" },
            "\(tone) \(standard.headers)")
        let on = site.send(site.request("PUT", "/api/alarms/\(id)/voice", device: token, json: #"{"on": true}"#))
        #expect(on.status == 200 && (on.json as? [String: Any])?["soundReason"] is NSNull)
        #expect(site.send(site.request("PUT", "/api/alarms/00000000/voice", device: token, json: #"{"on": true}"#)).status == 404)
    }

    @Test(
        "An upload too large, unsaved, empty or not audio is refused whole: the library is unchanged",
        arguments: [
            (HTTPBody.tooLarge(limit: 1024 * 1024), 413), (.unsaved(reason: "no space left on device"), 507), (.empty, 400),
        ])
    func refusedUploads(_ body: HTTPBody, _ status: Int) async throws {
        let (site, token, _) = try await siteWithPlaylist()
        let response = site.send(site.request("POST", "/api/clips", device: token, body: body))
        #expect(response.status == status)
        #expect(try site.service().clips.all().count == 1)
    }

    @Test("Download a backup: the archive 'export' writes, as an attachment named for the day; no device of the site in it")
    func backup() async throws {
        let (site, token, clip) = try await siteWithPlaylist()
        let response = site.send(site.request("GET", "/api/backup", device: token))
        #expect(response.status == 200)
        let header = { (name: String) in response.headers.first { $0.name.lowercased() == name.lowercased() }?.value }
        #expect(header("Content-Type") == "application/x-tar")
        let disposition = try #require(header("Content-Disposition"))
        #expect(disposition.hasPrefix("attachment; filename=\"voicealarm-backup-") && disposition.hasSuffix(".tar\""), "\(disposition)")
        guard case .data(let data) = response.body else { Issue.record("the archive is sent from memory"); return }
        let archive = site.folder.file("downloaded.tar")
        try data.write(to: URL(fileURLWithPath: archive))
        let listing = try await ProcessRunner.run("/bin/tar", ["-tf", archive])
        #expect(listing.status == 0 && listing.stdout.contains("voicealarm-export/clips/\(clip).flac"), "\(listing.stdout)")
        #expect(listing.stdout.contains("voicealarm-export/manifest.json") && !listing.stdout.contains("web"))
        #expect(data.range(of: Data("Phone".utf8)) == nil, "the paired phone's name is nowhere in it")
        #expect(site.send(site.request("GET", "/api/backup")).status == 401, "a device that is not paired gets nothing")
    }

    @Test("Garbage uploaded is refused as not audio (422), and nothing is imported")
    func garbageUpload() async throws {
        let (site, token, _) = try await siteWithPlaylist()
        let file = site.folder.file("uploads/upload-garbage.part")
        var generator = SeededGenerator(seed: 2026_12_02)
        try Data((0..<50_000).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: URL(fileURLWithPath: file))
        let response = site.send(site.request("POST", "/api/clips", device: token, body: .file(path: file, bytes: 50_000)))
        #expect(response.status == 422, "\(response.errorMessage ?? "")")
        let error = try #require((response.json as? [String: Any])?["error"] as? [String: Any])
        #expect(error["input"] as? String == "the upload" && !(error["message"] as? String ?? "").contains(file), "the refusal names the upload, not its file")
        #expect(try site.service().clips.all().count == 1)
    }

    @Test("An upload imported: the clip document of 'clip import --json', titled by ?title=")
    func upload() async throws {
        let (site, token, _) = try await siteWithPlaylist()
        let file = site.folder.file("uploads/upload-good.part")
        try FileManager.default.copyItem(atPath: "\(ProjectPaths.sampleAudio)/kind.ogg", toPath: file)
        let response = site.send(site.request("POST", "/api/clips", device: token, body: .file(path: file, bytes: 1), query: ["title": "From my phone"]))
        #expect(response.status == 201)
        let clip = try #require(response.json as? [String: Any])
        #expect(clip["title"] as? String == "From my phone" && Set(clip.keys) == ["id", "title", "duration", "path", "spokenText", "cutOff"])
    }

    @Test("Playlists: reorder, take out and add in one PUT; an unknown clip changes nothing; the planner's cap note comes with each")
    func playlists() async throws {
        let (site, token, first) = try await siteWithPlaylist()
        #expect((site.send(site.request("GET", "/api/playlists/morning", device: token)).json as? [String: Any])?["capNote"] is NSNull, "it plays whole")
        let second = try site.service().clips.add("\(ProjectPaths.sampleAudio)/manifesto.flac", title: "Manifesto").idString
        let put = site.send(site.request("PUT", "/api/playlists/morning", device: token, json: #"{"clips": ["\#(second)", "\#(first)"]}"#))
        #expect(put.status == 200)
        // The 35 s manifesto first is cut at the cap, as a first clip is, and the clip after it never plays: said.
        #expect(
            (put.json as? [String: Any])?["capNote"] as? String
                == "'Manifesto' (34.6 s) is longer than the 29 s cap and is cut at it, so the clip after it is left out of morning's ringtone",
            "\(put.json ?? "")")
        #expect(((put.json as? [String: Any])?["clips"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [second, first])
        let unknown = site.send(site.request("PUT", "/api/playlists/morning", device: token, json: #"{"clips": ["\#(first)", "ffffffff"]}"#))
        #expect(unknown.status == 404)
        #expect(try site.service().playlists.clips(of: .playlist("morning")).map(\.idString) == [second, first])
        // After the short clip, the manifesto crosses the cap and is left out: the planner's words, in every document of it.
        let swapped = site.send(site.request("PUT", "/api/playlists/morning", device: token, json: #"{"clips": ["\#(first)", "\#(second)"]}"#))
        let note = (swapped.json as? [String: Any])?["capNote"] as? String
        #expect(note?.contains("'Manifesto' (34.6 s) crosses it and is left out of morning's ringtone") == true, "\(String(describing: note))")
        let listed = site.send(site.request("GET", "/api/playlists", device: token)).json as? [[String: Any]]
        #expect(listed?.first?["capNote"] as? String == note)
    }

    @Test("Listen: a clip's audio and an alarm's ringtone are the files themselves; the picture is show's SVG; nothing to snooze is a 409")
    func listen() async throws {
        let (site, token, clip) = try await siteWithPlaylist()
        let audio = site.send(site.request("GET", "/api/clips/\(clip)/audio", device: token))
        let stored = try site.service().clips.resolve(clip)
        guard case .file(let path) = audio.body else { throw WebTestFailure("the clip's audio is not its file") }
        let storedPath = try site.service().clips.path(of: stored)
        #expect(audio.status == 200 && path == storedPath && audio.header("Content-Type") == "audio/flac")
        let added = site.send(site.request("POST", "/api/alarms", device: token, json: #"{"target": "morning", "at": "06:45"}"#))
        let id = try #require(((added.json as? [String: Any])?["alarm"] as? [String: Any])?["id"] as? String)
        let ringtone = site.send(site.request("GET", "/api/alarms/\(id)/ringtone", device: token))
        #expect(ringtone.status == 200 && ringtone.header("Content-Type") == "audio/mp4")
        let picture = site.send(site.request("GET", "/api/picture/morning", device: token))
        guard case .data(let svg) = picture.body else { throw WebTestFailure("no picture") }
        #expect(picture.status == 200 && String(decoding: svg, as: UTF8.self).contains("<svg"))
        #expect(site.send(site.request("GET", "/api/clips/../../etc/passwd/audio", device: token)).status == 404)
        let snooze = site.send(site.request("POST", "/api/snooze", device: token))
        #expect(snooze.status == 409 && snooze.errorMessage != nil)
        let status = try #require(site.send(site.request("GET", "/api/status", device: token)).json as? [String: Any])
        #expect(status["ringing"] as? [Any] != nil && (status["ringing"] as? [Any])?.isEmpty == true)
        #expect(status["deviceChecked"] as? Bool == false, "the page never opens the sound device")
    }
}
