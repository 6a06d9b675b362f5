import Foundation
import TestSupport
import Testing

/// RMS in dB of each whole second of what was played, from the first loud sample on: without the
/// digital silence (10 ms or more of zeros) the sink plays when the ring's process was held up
/// long enough for its device to run dry. The ramp rises over the samples the ring plays, so a
/// hold shifts it without changing it. (A hold of 0.4 s on a busy machine can leave 2.3 s of
/// silence: ALSA's PulseAudio plugin plays again only at its next timing update. That is
/// measured and open; these tests are about what is played.)
private func playedLevels(_ samples: [Int16]) -> [Double] {
    guard let onset = samples.firstIndex(where: { abs(Int($0)) > 300 }) else { return [] }
    var played: [Int16] = []
    var zeros = 0
    for sample in samples[onset...] {
        zeros = sample == 0 ? zeros + 1 : 0
        played.append(sample)
        if zeros == 441 { played.removeLast(441) } else if zeros > 441 { played.removeLast() }
    }
    return perSecond(played)
}

/// RMS in dB of each whole second of `samples`.
private func perSecond(_ samples: [Int16]) -> [Double] {
    stride(from: 0, to: samples.count - 44_099, by: 44_100).map { start in
        let power = samples[start..<start + 44_100].reduce(0.0) { $0 + Double($1) * Double($1) } / 44_100
        return 10 * log10(max(power, 1e-9) / (32768.0 * 32768.0))
    }
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
        let loud = playedLevels(heard)
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
        let rising = playedLevels(heard)
        #expect(rising.count >= 6, "\(rising)")
        guard rising.count >= 6 else { return }
        for second in 1..<4 { #expect(rising[second] > rising[second - 1], "second \(second): \(rising)") }
        #expect(abs(rising[4] - rising[5]) <= 1, "full level by the ramp's end: \(rising)")
    }
}
