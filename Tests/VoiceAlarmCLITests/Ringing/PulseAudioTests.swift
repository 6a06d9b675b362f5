import Foundation
import TestSupport
import Testing

/// RMS in dB of each whole second of `samples` from the first loud one on.
private func levels(_ samples: [Int16]) -> [Double] {
    guard let onset = samples.firstIndex(where: { abs(Int($0)) > 300 }) else { return [] }
    return stride(from: onset, to: samples.count - 44_099, by: 44_100).map { start in
        let power = samples[start..<start + 44_100].reduce(0.0) { $0 + Double($1) * Double($1) } / 44_100
        return 10 * log10(max(power, 1e-9) / (32768.0 * 32768.0))
    }
}

/// The longest run of silence, in seconds, between the first and the last loud sample.
private func longestGap(_ samples: [Int16]) -> Double {
    guard let first = samples.firstIndex(where: { abs(Int($0)) > 300 }), let last = samples.lastIndex(where: { abs(Int($0)) > 300 }) else { return .infinity }
    var run = 0, longest = 0
    for sample in samples[first...last] {
        run = abs(Int(sample)) < 30 ? run + 1 : 0
        longest = max(longest, run)
    }
    return Double(longest) / 44_100
}

@Suite("Ringing through a desktop sound server (a real PulseAudio)", .serialized, .timeLimit(.minutes(1)))
struct PulseAudioTests {
    @Test("A muted or 3 % sink is heard during the ring and restored after it", arguments: ["muted", "3%"])
    func silentModeOverridden(_ state: String) async throws {
        let server = try await PulseServer()
        let lib = try RingLibrary()
        let id = try await lib.alarm()
        if state == "muted" { try await server.pactl(["set-sink-mute", "spk", "1"]) } else { try await server.pactl(["set-sink-volume", "spk", "3%"]) }
        let heard = try await server.recording {
            let ring = try await ProcessRunner.run(
                ProjectPaths.binary, ["--data-dir", lib.dataDir, "ring", id, "--max-seconds", "3"],
                environment: server.environment)
            #expect(ring.status == 0, "\(ring.stderr)")
            #expect(ring.stderr.contains("For the ring:") && ring.stderr.contains("restored afterwards"), "\(ring.stderr)")
        }
        let loud = levels(heard)
        #expect(loud.count >= 2 && loud.prefix(2).allSatisfy { $0 > -40 }, "heard at the monitor: \(loud)")
        let mute = try await server.pactl(["get-sink-mute", "spk"]).stdout
        let volume = try await server.pactl(["get-sink-volume", "spk"]).stdout
        if state == "muted" {
            #expect(mute.contains("yes"), "restored: \(mute)")
        } else {
            #expect(volume.contains(" 3% ") || volume.contains("/   3% /"), "restored: \(volume)")
        }
    }

    @Test("The ramp, at the monitor: each second louder than the last, full level within 1 dB by its end")
    func rampAtTheMonitor() async throws {
        let server = try await PulseServer()
        let lib = try RingLibrary()
        let id = try await lib.toneAlarm()
        let heard = try await server.recording {
            let ring = try await ProcessRunner.run(
                ProjectPaths.binary, ["--data-dir", lib.dataDir, "ring", id, "--max-seconds", "7", "--ramp", "4"],
                environment: server.environment)
            #expect(ring.status == 0, "\(ring.stderr)")
        }
        let rising = levels(heard)
        #expect(rising.count >= 6, "\(rising)")
        guard rising.count >= 6 else { return }
        for second in 1..<4 { #expect(rising[second] > rising[second - 1], "second \(second): \(rising)") }
        #expect(abs(rising[4] - rising[5]) <= 1, "full level by the ramp's end: \(rising)")
    }

    /// A busy machine can hold the ring's process up. The device holds up to a second of audio,
    /// so a short hold is not heard. After a longer one the ring goes on within half a second of
    /// the hold's end, not the seconds ALSA's PulseAudio plugin can otherwise wait to play again.
    @Test(
        "A ring held up by a busy machine: a short hold not heard, a long one at most 0.5 s longer than it lasted",
        arguments: [(hold: 0.4, longestGap: 0.05), (hold: 2.0, longestGap: 2.5)])
    func heldUp(hold: Double, longestGap allowed: Double) async throws {
        let server = try await PulseServer()
        let lib = try RingLibrary()
        let id = try await lib.toneAlarm()
        let heard = try await server.recording {
            let script =
                "\"$0\" --data-dir \"$1\" ring \"$2\" --max-seconds 7 & ring=$!; "
                + "sleep 2.5; kill -STOP $ring; sleep \(hold); kill -CONT $ring; wait $ring"
            let ring = try await ProcessRunner.run(
                "/bin/sh", ["-c", script, ProjectPaths.binary, lib.dataDir, id], environment: server.environment)
            #expect(ring.status == 0, "\(ring.stderr)")
        }
        let gap = longestGap(heard)
        #expect(gap <= allowed, "held up \(hold) s: the longest silence heard was \(gap) s")
        if hold < 1 { #expect(Double(heard.count) / 44_100 >= 6.5, "heard \(Double(heard.count) / 44_100) s of a 7 s ring") }
    }
}
