import Foundation
import TestSupport
import Testing

/// The `ExecStart=` line of an alarm's service unit.
private func execStart(_ units: String, _ id: String) throws -> String {
    let text = try String(contentsOfFile: "\(units)/voicealarm-\(id).service", encoding: .utf8)
    return String(try #require(text.split(separator: "\n").first { $0.hasPrefix("ExecStart=") }))
}

@Suite("Units run a binary that stays, with what a ring needs", .serialized, .timeLimit(.minutes(1)))
struct StablePathTests {
    @Test("A build-folder binary is named as such; once installed, reconcile re-points every unit to the installed one")
    func unitsFollowTheInstalledBinary() async throws {
        let lib = try RingLibrary()
        // A PATH with no installed voicealarm on it: one installed on this machine would be what
        // the units run from the start, and this test installs its own.
        lib.environment["PATH"] = lib.dir.file("no-voicealarm")
        let units = lib.dir.file("units")
        _ = try await lib.ok(["--scheduler", "systemd", "--unit-dir", units, "reconcile", "-q"])
        let id = try await lib.alarm()
        _ = try await lib.ok(["settings", "device", "speaker", "-q"])
        let before = try execStart(units, id)
        #expect(before.contains("/.build/"))
        #expect(before.contains("\"--device\" \"speaker\"") && before.contains("\"--sound\" \"\(lib.dataDir)/Sounds/\(id).m4a\""), "\(before)")
        let doctor = try await lib.run(["doctor"])
        #expect(doctor.stderr.contains("inside a build folder") && doctor.stderr.contains("make install"), "\(doctor.stderr)")

        let dest = TemporaryDirectory("installed")
        try await ProcessRunner.mustRun(
            "/usr/bin/env",
            [
                "make", "-s", "-C", ProjectPaths.root, "--no-print-directory", "install",
                "PREFIX=\(dest.path)", "INSTALL_BIN=\(ProjectPaths.binary)",
            ])
        let installed = "\(dest.path)/bin/voicealarm"
        let reconcile = try await ProcessRunner.run(installed, ["--data-dir", lib.dataDir, "reconcile", "--json", "-q"], environment: lib.devices.environment)
        #expect(reconcile.status == 0, "\(reconcile.stderr)")
        #expect(reconcile.stdout.contains(id), "the unit was re-pointed: \(reconcile.stdout)")
        let after = try execStart(units, id)
        #expect(after.contains("\"\(installed)\"") && !after.contains("/.build/"), "\(after)")
        let verify = try await ProcessRunner.run(
            "/usr/bin/systemd-analyze", ["verify", "\(units)/voicealarm-\(id).service", "\(units)/voicealarm-\(id).timer"])
        #expect(verify.status == 0, "\(verify.stderr)")
        let quiet = try await ProcessRunner.run(installed, ["--data-dir", lib.dataDir, "doctor"], environment: lib.devices.environment)
        #expect(!quiet.stderr.contains("inside a build folder"), "\(quiet.stderr)")
    }

    @Test("The remembered device is where ring plays, and what doctor checks")
    func rememberedDevice() async throws {
        let lib = try RingLibrary()
        let id = try await lib.alarm()
        _ = try await lib.ok(["settings", "device", "speaker", "-q"])
        let ring = try await lib.run(["ring", id, "--max-seconds", "1", "-q"])
        #expect(ring.status == 0, "\(ring.stderr)")
        #expect(try await IndependentMeasure.decodedSamples(lib.devices.speaker).count == 44_100)
        let doctor = try await lib.run(["doctor"])
        #expect(doctor.stdout.contains("sound device 'speaker': opens"), "\(doctor.stdout)")
        let bad = try await lib.run(["settings", "device", "nosuchcard"])
        #expect(bad.status == 0 && bad.stderr.contains("does not open") && bad.stderr.contains("voicealarm devices"), "\(bad.stderr)")
    }
}

@Suite("A gentle, certain wake-up: the volume ramp", .timeLimit(.minutes(1)))
struct VolumeRampTests {
    /// RMS in dB of each whole second of `samples` at 44.1 kHz.
    private func perSecondLevels(_ samples: [Int16]) -> [Double] {
        stride(from: 0, to: samples.count - 44_099, by: 44_100).map { start in
            let second = samples[start..<start + 44_100]
            let power = second.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(second.count)
            return 10 * log10(max(power, 1e-9) / (32768.0 * 32768.0))
        }
    }

    @Test("With the remembered ramp, each second of the ring is louder than the last until full level, from an audible start")
    func rampRises() async throws {
        let lib = try RingLibrary()
        let id = try await lib.toneAlarm()
        _ = try await lib.ok(["settings", "ramp", "6", "-q"])
        let ring = try await lib.run(["ring", id, "--max-seconds", "9", "-q"])
        #expect(ring.status == 0, "\(ring.stderr)")
        let levels = await perSecondLevels(try IndependentMeasure.decodedSamples(lib.devices.played))
        #expect(levels.count == 9)
        for second in 1..<6 { #expect(levels[second] > levels[second - 1] + 1, "second \(second): \(levels)") }
        let full = levels[7]
        #expect(abs(levels[6] - full) <= 1, "full level by the ramp's end: \(levels)")
        #expect(levels[0] > full - 26 && levels[0] < full - 15, "quiet but audible at first: \(levels)")

        let flat = try await lib.run(["ring", id, "--max-seconds", "3", "--ramp", "0", "-q"])
        #expect(flat.status == 0)
        let flatLevels = await perSecondLevels(try IndependentMeasure.decodedSamples(lib.devices.played))
        #expect(abs(flatLevels[0] - flatLevels[2]) < 0.5, "--ramp 0 rings at full level at once: \(flatLevels)")
        await #expect(try lib.run(["settings", "ramp", "500"]).status == 64)
    }
}
