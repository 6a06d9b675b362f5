import Foundation
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmFiles
import VoiceAlarmScheduling

/// Where a test ring is asked and answered: `<data-dir>/test-ring/`. The page asks
/// (`asked.json`); the alarm daemon, which watches the folder, takes the request (`taken.json`)
/// and rings the alarm as it rings any alarm — its own process, in the ringing registry, so Stop
/// and the banner work — writing the ring's `--json` result to `result.json`. The web server
/// never opens the sound device, and nothing here is on an alarm's own ring path: a request the
/// daemon never takes only says so.
///
/// ```swift
/// try TestRingDesk(dataDirectory: dir).ask("4f1c…", in: service)   // the page's "Ring it here now"
/// TestRingDesk(dataDirectory: dir).take(now: Date())                // the daemon, on a change to the folder
/// ```
package struct TestRingDesk: Sendable {
    /// The folder's name in the data dir.
    package static let folder = "test-ring"
    package let directory: String
    let dataDirectory: String

    /// Why a test ring cannot be asked now; each says what the person can do instead.
    package enum Refusal: Error, Equatable, Sendable {
        /// No daemon runs for this library: nothing would ring it (nor the alarms).
        case noDaemon(alarm: UUID)
        /// The library rings with systemd timers, which ring at their times only.
        case systemdTimers(alarm: UUID)
        /// An alarm (or a test ring) rings now.
        case ringingNow
    }

    package init(dataDirectory: String) {
        self.dataDirectory = dataDirectory
        directory = "\(dataDirectory)/\(Self.folder)"
    }

    var askedPath: String { "\(directory)/asked.json" }
    var takenPath: String { "\(directory)/taken.json" }
    /// Where the daemon sends the test ring's `--json` result.
    package var resultPath: String { "\(directory)/result.json" }

    /// Asks the daemon to ring the alarm `reference` names now, for `TestRing.seconds`.
    /// - Throws: `LibraryError` for an unknown alarm; `Refusal` when nothing would ring it now.
    @discardableResult
    package func ask(_ reference: String, in service: AlarmService) throws -> TestRing.Phase {
        let id = try service.alarms.id(reference)
        guard service.scheduler.ringsThroughDaemon else { throw Refusal.systemdTimers(alarm: id) }
        guard DaemonLock.isHeld(dataDirectory: dataDirectory) else { throw Refusal.noDaemon(alarm: id) }
        guard RingingRegistry(dataDirectory: dataDirectory).live().isEmpty else { throw Refusal.ringingNow }
        let request = TestRing.Request(alarm: id, asked: service.now())
        try FileSystem.makeDirectory(directory, permissions: 0o700)
        try FileSystem.atomicWrite(try JSONEncoder().encode(request), to: askedPath, permissions: 0o600, durable: false)
        return .asked(request)
    }

    /// The daemon's part: takes the waiting request, if any, and makes room for its result. A
    /// request older than `TestRing.takeWithin` is dropped (the page already says it was not
    /// taken: ringing it now would surprise).
    package func take(now: Date) -> TestRing.Request? {
        guard let data = FileSystem.contents(askedPath) else { return nil }
        FileSystem.remove(askedPath)
        guard let request = try? JSONDecoder().decode(TestRing.Request.self, from: data),
            now.timeIntervalSince(request.asked) <= TestRing.takeWithin, now >= request.asked
        else { return nil }
        FileSystem.remove(resultPath)
        guard (try? FileSystem.atomicWrite(data, to: takenPath, permissions: 0o600, durable: false)) != nil else { return nil }
        return request
    }

    /// The newest test ring's phase, from the folder and the rings going on; nil when there is none to show.
    package func phase(now: Date) -> TestRing.Phase? {
        func request(_ path: String) -> TestRing.Request? {
            FileSystem.contents(path).flatMap { try? JSONDecoder().decode(TestRing.Request.self, from: $0) }
        }
        let taken = request(takenPath)
        let ringing = taken.map { taken in RingingRegistry(dataDirectory: dataDirectory).live().contains { $0.id == taken.alarm } } ?? false
        return TestRing.phase(asked: request(askedPath), taken: taken, result: result(), ringing: ringing, now: now)
    }

    /// What the ring said on its stdout (`ring --json`), once it ended.
    private func result() -> TestRing.Result? {
        struct Said: Decodable {
            struct Failure: Decodable { var message: String }
            var outcome: String?, device: String?, sound: String?, seconds: Double?
            var error: Failure?
        }
        guard let data = FileSystem.contents(resultPath), let said = try? JSONDecoder().decode(Said.self, from: data) else { return nil }
        if let error = said.error { return .madeNoSound(error.message) }
        guard said.outcome == "rang", let device = said.device, let sound = said.sound else { return nil }
        return .rang(device: device, voice: sound != DefaultTone.fileName, seconds: said.seconds ?? 0)
    }
}
