import Foundation
import TestSupport
import Testing
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmHTTP

@testable import VoiceAlarmWeb

@Suite("The status the page polls: health in the phone's words, kept a few seconds, afresh after a change")
struct WebStatusTests {
    @Test("With no daemon: 'noDaemon' stops ringing, in the phone's words (no command, no flag, no id); the examination is kept, and a change forgets it")
    func health() async throws {
        let site = try WebTestSite()
        let token = try await site.pairedToken()
        let service = try site.service()
        let clip = try service.clips.add("\(ProjectPaths.sampleAudio)/kind.ogg", title: "Kind")
        try service.playlists.create("morning", clips: [clip.idString])
        _ = try service.alarms.add(on: .playlist("morning"), at: AlarmTime(hour: 7, minute: 0), days: [.monday])
        func status() throws -> [String: Any] {
            let answer = site.send(site.request("GET", "/api/status", device: token))
            #expect(answer.status == 200)
            return try #require(answer.json as? [String: Any])
        }
        let first = try status()
        let health = try #require(first["health"] as? [[String: Any]])
        let noDaemon = try #require(health.first { $0["code"] as? String == "noDaemon" }, "\(health)")
        #expect(noDaemon["stopsRinging"] as? Bool == true && noDaemon["action"] is NSNull, "no service is installed to start")
        for item in health {
            let sentence = try #require(item["sentence"] as? String)
            #expect(
                !sentence.contains("voicealarm ") && !sentence.contains(" --")
                    && sentence.range(of: "[0-9a-f]{8}-[0-9a-f]{4}-", options: .regularExpression) == nil,
                "the page's words: \(sentence)")
        }
        // Kept: an alarm added behind the page's back shows in the next examination only.
        _ = try service.alarms.add(on: .playlist("morning"), at: AlarmTime(hour: 7, minute: 30), days: [.monday])
        #expect(((try status())["doctor"] as? [String: Any])?["alarms"] as? Int == 1, "kept for a few seconds")
        site.clock.advance(16)
        #expect(((try status())["doctor"] as? [String: Any])?["alarms"] as? Int == 2, "examined again once it is old")
        // A change through the page forgets the kept examination at once.
        let added = site.send(site.request("POST", "/api/alarms", device: token, json: #"{"target": "morning", "at": "08:00", "days": "tue"}"#))
        #expect(added.status == 201)
        #expect(((try status())["doctor"] as? [String: Any])?["alarms"] as? Int == 3)
    }

    @Test("Starting the alarm service from the page: refused with the reason when none is installed where a manager runs it")
    func startRefused() async throws {
        let site = try WebTestSite()
        let token = try await site.pairedToken()
        let refused = site.send(site.request("POST", "/api/service/start", device: token))
        #expect(refused.status == 409)
        #expect(refused.errorMessage == "the alarm service is not installed")
    }
}
