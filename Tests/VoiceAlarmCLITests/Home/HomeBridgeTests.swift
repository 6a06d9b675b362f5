import Foundation
import TestSupport
import Testing

/// `voicealarm mqtt` against a real Mosquitto (Debian's, started by `home_bridge.py` on a free
/// loopback port with a password file, once with TLS), with paho-mqtt standing in for Home
/// Assistant: what arrives at the broker is the measure, and `alarm list --json` says what the
/// commands did to the library.
@Suite("Home Assistant over MQTT")
struct HomeBridgeTests {
    /// Runs a scenario of `home_bridge.py`; its JSON document.
    private func scenario(_ name: String) async throws -> [String: Any] {
        let folder = TemporaryDirectory("home")
        var environment = ProcessInfo.processInfo.environment
        environment["VOICEALARM_SAMPLES"] = ProjectPaths.sampleAudio
        let result = try await ProcessRunner.run(
            ProjectPaths.python, ["\(ProjectPaths.root)/Tests/Support/home_bridge.py", ProjectPaths.binary, folder.file("work"), name],
            environment: environment)
        let line = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(result.stderr.suffix(3000))")
    }

    @Test("Discovery, every command and event, a ring on time with the broker and bridge away, recovery", .timeLimit(.minutes(4)))
    func follows() async throws {
        let r = try await scenario("follow")
        let discovery = try #require(r["discovery"] as? [String: Bool])
        #expect(discovery.count == 14 && discovery.values.allSatisfy { $0 }, "\(discovery)")
        #expect((r["uniqueIDs"] as? [String])?.count == 14)
        #expect(r["labelInTopics"] as? Bool == false, "a label never becomes a topic")
        #expect(r["timePattern"] as? String == "^([01][0-9]|2[0-3]):[0-5][0-9]$")
        #expect(r["eventTypes"] as? [String] == ["rang", "stopped", "snoozed", "missed", "skipped", "pre_alarm"])
        let states = try #require(r["states"] as? [String: String])
        #expect(states["on"] == "ON" && states["voice"] == "ON" && states["state"] == "scheduled" && states["time"] == "07:00")
        #expect(states["next"]?.hasSuffix("T07:00:00+00:00") == true, "a timestamp with its UTC offset: \(states)")
        #expect(r["availability"] as? String == "online")
        let preAlarm = try #require(r["preAlarm"] as? [String: String], "no pre_alarm")
        #expect(preAlarm["due"] != nil)

        // The daemon rang at its minute while the broker was stopped and the bridge SIGSTOPped.
        #expect((r["rangWhileAway"] as? String)?.hasSuffix("T07:00:00Z") == true, "\(String(describing: r["rangWhileAway"]))")
        let rang = try #require(r["rangAfterRecovery"] as? [String: String], "the ring's event was lost")
        #expect(rang["sound"] == "voice" && rang["at"]?.hasSuffix("T07:00:00+00:00") == true)
        #expect((r["stoppedAfterRecovery"] as? [String: String])?["seconds"] == "2.0")
        #expect(r["rediscovered"] as? Bool == true)
        let latency = try #require(r["eventLatency"] as? Double)
        #expect(latency < 1, "an event reaches the broker within a second of its line: \(latency) s")

        let c = try #require(r["commands"] as? [String: Any])
        func said(_ key: String) -> String { (c[key] as? [String: Any])?["said"] as? String ?? "" }
        func state(_ key: String) -> String? { (c[key] as? [String: Any])?["state"] as? String }
        #expect(state("off") == "OFF" && c["offListed"] as? Bool == false && c["offState"] as? String == "off")
        #expect(said("offAgain").contains("already off"))
        #expect(state("on") == "ON")
        #expect(state("voiceOff") == "OFF" && c["voiceListed"] as? Bool == false && said("voiceOff").contains("recordings are kept"))
        #expect(state("voiceOn") == "ON")
        #expect(state("time") == "06:30" && c["timeListed"] as? String == "06:30" && c["idAfterEdit"] as? Bool == true)
        #expect(state("skip") == "skipped" && (c["skippedListed"] as? [String])?.count == 1)
        #expect(said("skipAgain").contains("already skipped"), "a repeated Skip next skips nothing more")
        #expect(said("stopNothing").contains("nothing was ringing"))
        #expect(said("upNothing").contains("no snooze was waiting"))
        #expect(said("snoozeNothing").contains("nothing of ours is ringing"))
        #expect(said("ringNow").contains("rings here now"))
        #expect((c["ringNowEvent"] as? [String: String])?["test"] == "true")
        #expect(c["ringingSeen"] as? Bool == true && c["ringingState"] as? String == "ringing")
        #expect(said("snoozeTest").contains("not snoozed"))
        #expect(said("stop") == "Stopped the ring.")
        #expect(c["stoppedEvent"] is [String: String])

        let ignored = try #require(r["badIgnoredLines"] as? [String])
        #expect(ignored.count == 7, "one line per bad message: \(ignored)")
        #expect(r["badUnchanged"] as? Bool == true)
        #expect(r["birthRepublished"] as? Bool == true)
        #expect(r["removedCleared"] as? Bool == true, "a removed alarm's device goes")
        #expect(r["bridgeExit"] as? Int == 0 && r["offlineAfterStop"] as? String == "offline")
    }

    @Test("Refused: wrong credentials, an exposed password, an anonymous broker; a missing broker is waited for", .timeLimit(.minutes(3)))
    func refusals() async throws {
        let r = try await scenario("refusals")
        func refusal(_ key: String) -> (Int, [String]) {
            let entry = r[key] as? [String: Any]
            return (entry?["status"] as? Int ?? -1, (entry?["stderr"] as? [String] ?? []).filter { $0.hasPrefix("error:") })
        }
        for (key, status, words) in [
            ("wrongPassword", 1, "refused the connection"), ("exposedPassword", 1, "others may read it"), ("noUser", 64, "--username"),
            ("badBroker", 64, "not a broker address"), ("wildcardBase", 64, "wildcard"), ("anonymousBroker", 1, "lets anyone connect"),
        ] {
            let (got, errors) = refusal(key)
            #expect(got == status && errors.count == 1 && errors[0].contains(words), "\(key): \(got) \(errors)")
        }
        #expect(r["nothingRemembered"] as? Bool == true, "settings the broker refused are not kept")
        #expect(r["allowedConnects"] as? Bool == true && (r["allowedWarned"] as? [String])?.count == 1 && r["allowedExit"] as? Int == 0)
        #expect(r["rememberedMode"] as? String == "0o600")
        #expect((r["remembered"] as? [String: Any])?["passwordFile"] != nil && (r["remembered"] as? [String: Any])?["password"] == nil)
        #expect(r["rememberedConnects"] as? Bool == true)
        let unreachable = r["unreachableSaid"] as? [String] ?? []
        #expect(unreachable.filter { $0.contains("cannot reach the broker") }.count == 1, "\(unreachable)")
        #expect(r["unreachableRunning"] as? Bool == true && r["unreachableExit"] as? Int == 0)
    }

    @Test("TLS: the broker verified with the CA given, refused with another", .timeLimit(.minutes(2)))
    func tls() async throws {
        let r = try await scenario("tls")
        #expect(r["tlsConnects"] as? Bool == true && r["tlsState"] as? String == "scheduled")
        let other = r["otherCA"] as? [String: Any]
        let errors = (other?["stderr"] as? [String] ?? []).filter { $0.hasPrefix("error:") }
        print("the bridge with another CA: \(other ?? [:])")
        #expect(other?["status"] as? Int == 1 && errors.count == 1 && errors.first?.contains("TLS") == true, "\(String(describing: other))")
    }
}
