import Foundation
import TestSupport
import Testing

/// Monday 2027-01-04 06:59:52 UTC, eight seconds before a Monday 07:00 alarm.
let justBeforeSeven = "2027-01-04 06:59:52"

/// Runs the daemon on a fake clock until the alarm `id` has rung, then checks it played the
/// voice file `voice` (its decoded samples), not the default tone.
func ringsVoiceAtSeven(_ lib: RingLibrary, _ id: String, voice: String) async throws {
    try? FileManager.default.removeItem(atPath: lib.devices.played)
    try? FileManager.default.removeItem(atPath: "\(lib.dataDir)/events.log")  // only this ring's events count
    let daemon = try FakeTimeDaemon(lib, fakeStart: justBeforeSeven)
    let rang = await daemon.waitForEvent("stopped alarm \(id)")
    let (status, stderr) = await daemon.stop()
    #expect(rang && status == 0, "\(stderr)")
    let log = (try? String(contentsOfFile: "\(lib.dataDir)/events.log", encoding: .utf8)) ?? ""
    // At its minute, or (on a machine too busy to start the daemon in eight seconds) late within the missed-alarm window.
    #expect(log.contains("2027-01-04T07:0"), "rang at 07:00: \(log)")
    let played = try await IndependentMeasure.decodedSamples(lib.devices.played)
    let ringtone = try await IndependentMeasure.decodedSamples(voice)
    #expect(played.count > 44_100)
    #expect(correlation(Array(played.prefix(ringtone.count)), Array(ringtone.prefix(played.count))) > 0.999, "the voice, not the default tone")
}

/// The sounds the scheduler names, from `scheduler list --json`: alarm id → file name (nil for the default tone).
func scheduledSounds(_ lib: RingLibrary) async throws -> [String: String?] {
    let held = try await JSONSerialization.jsonObject(with: Data(lib.ok(["scheduler", "list", "--json", "-q"]).utf8)) as? [[String: Any]] ?? []
    var sounds: [String: String?] = [:]
    for entry in held {
        guard let id = entry["id"] as? String else { continue }
        let sound = entry["sound"] as? String
        sounds[id] = sound == "default" ? nil : sound
    }
    return sounds
}

/// A library that belongs to an unprivileged user, with a manifesto alarm at 07:00 on Mondays
/// that the user added: the user, their copy of the binary, and the alarm's id.
func ownedAlarm(_ lib: RingLibrary) async throws -> (user: String, binary: String, id: String) {
    let (user, binary) = try await unprivileged(lib)
    func ok(_ arguments: [String]) async throws -> String {
        let result = try await runAsOwner(user, binary, lib, arguments + ["-q"])
        guard result.status == 0 else { throw TestSupportError("\(arguments) as \(user) failed: \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .newlines)
    }
    // The user may not reach inside the checkout (a clone in a 0700 folder, a home folder): their own copy.
    let sample = lib.dir.file("calm.wav")
    try FileManager.default.copyItem(atPath: "\(ProjectPaths.sampleAudio)/calm.wav", toPath: sample)
    chmod(sample, 0o644)
    let clip = try await ok(["clip", "import", sample])
    _ = try await ok(["manifesto", "set", clip])
    return await (user, binary, try ok(["alarm", "add", "manifesto", "--at", "07:00", "--days", "mon"]))
}

/// Runs the binary as `user` on `lib`, started in the library's folder (see `runAs(_:in:…)`).
func runAsOwner(_ user: String, _ binary: String, _ lib: RingLibrary, _ arguments: [String]) async throws -> ProcessResult {
    try await runAs(user, in: lib.dir.path, binary, ["--data-dir", lib.dataDir] + arguments, environment: lib.devices.environment)
}

/// Every trap of the Swift runtime ends a process with SIGILL or SIGTRAP (exit 132 or 133 through a shell).
func trapped(_ result: ProcessResult) -> Bool {
    result.status == 132 || result.status == 133 || result.status == 4 || result.status == 5 || result.stderr.contains("Fatal error")
        || result.stderr.contains("arithmetic overflow") || result.stderr.contains("Swift runtime failure")
}
