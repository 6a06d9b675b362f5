import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `GET /api/status`: what is ringing now (each ring's alarm with its time, label and target, and
/// its snooze when it has one), the snoozes waiting, and the machine's health — what `doctor`
/// says, and each problem in the phone's words (`health`) with what the page can do about it.
/// Without opening the sound device: the page asks every few seconds, and a device held by the
/// page at the minute an alarm starts could keep the alarm from ringing on it (`deviceChecked`
/// is false). The examination is kept a few seconds (`HealthCache`); the rings are read afresh.
struct WebStatus: Encodable {
    /// A ring going on now; its alarm's time, label and target when the library knows it (a
    /// ring is shown, and can be stopped, even when it does not).
    struct Ring: Encodable {
        var alarm: String, time: Nullable<String>, label: Nullable<String>, target: Nullable<String>, snooze: Nullable<Int>
        /// When this ring began: a new ring of the same alarm has a new one (the page's banner is the ring's).
        var since: Nullable<String>
        /// Whether it is a test ring asked from the page.
        var test: Bool
    }
    struct Fallback: Encodable { var id: String; var reason: String }
    struct Snoozed: Encodable { var alarm: String; var ringAt: String }
    var ringing: [Ring]
    var snoozed: [Snoozed]
    var defaultTone: [Fallback]
    var deviceChecked = false
    var doctor: DoctorJSON
    var health: [HealthJSON]
    var testRing: Nullable<TestRingJSON>

    init(service: AlarmService, location: LibraryLocation, cache: HealthCache) throws {
        let statuses = try service.alarms.statuses()
        let alarms = Dictionary(statuses.map { ($0.alarm.id, $0.alarm) }, uniquingKeysWith: { first, _ in first })
        let testRing = TestRingDesk(dataDirectory: service.dataDirectory).phase(now: service.now())
        self.testRing = .init(testRing.map { TestRingJSON($0, service.timeZone) })
        let registry = RingingRegistry(dataDirectory: service.dataDirectory)
        ringing = registry.ringing().map { ring in
            // A snoozed ring is registered under its alarm's id with every bit flipped.
            let id = Snooze.isScheduleID(ring) ? Snooze.scheduleID(for: ring) : ring
            let alarm = alarms[id]
            let test: Bool = if case .ringing(let request) = testRing { request.alarm == ring } else { false }
            return Ring(
                alarm: id.uuidString.lowercased(), time: .init(alarm?.time.description), label: .init(alarm?.label ?? nil),
                target: .init(alarm?.target.description), snooze: .init(test ? nil : alarm?.snoozeMinutes ?? nil),
                since: .init(registry.since(ring).map { LocalTimeText.iso($0, service.timeZone) }), test: test)
        }
        let entry = try cache.entry(at: service.now()) {
            let report = try Doctor(service: service, openDevice: { _ in }).examine(location: location)
            let daemon = report.daemonService?.state
            return HealthCache.Entry(report: report, canStartService: daemon.map { $0.installed && $0.managed && !$0.running } ?? false)
        }
        doctor = DoctorJSON(entry.report, on: .page)
        health = entry.report.problems.map { HealthJSON($0, libraryOpens: entry.report.libraryProblem == nil, canStartService: entry.canStartService) }
        defaultTone = entry.report.onDefaultTone.map { Fallback(id: $0.id, reason: $0.reason) }
        snoozed = statuses.compactMap { status in
            status.snoozedUntil.map { Snoozed(alarm: status.alarm.idString, ringAt: LocalTimeText.iso($0, service.timeZone)) }
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(ringing, forKey: .ringing); try c.encode(snoozed, forKey: .snoozed); try c.encode(defaultTone, forKey: .defaultTone)
        try c.encode(deviceChecked, forKey: .deviceChecked); try c.encode(doctor, forKey: .doctor); try c.encode(health, forKey: .health)
        try c.encode(testRing, forKey: .testRing)
    }
    enum Keys: String, CodingKey { case ringing, snoozed, defaultTone, deviceChecked, doctor, health, testRing }
}
