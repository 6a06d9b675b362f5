import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `GET /api/status`: what is ringing now, and what `doctor` says (daemon, device, wake from
/// suspend, the alarms on the default tone and why, every problem as a sentence).
struct WebStatus: Encodable {
    struct Fallback: Encodable { var id: String; var reason: String }
    var ringing: [String]
    struct Snoozed: Encodable { var alarm: String; var ringAt: String }
    var snoozed: [Snoozed]
    var defaultTone: [Fallback]
    var doctor: DoctorJSON

    init(service: AlarmService, location: LibraryLocation) throws {
        ringing = RingingRegistry(dataDirectory: service.dataDirectory).ringing().map { $0.uuidString.lowercased() }
        let report = try Doctor(service: service).examine(location: location)
        doctor = DoctorJSON(report)
        defaultTone = report.onDefaultTone.map { Fallback(id: $0.id, reason: $0.reason) }
        snoozed = try service.alarms.statuses().compactMap { status in
            status.snoozedUntil.map { Snoozed(alarm: status.alarm.idString, ringAt: LocalTimeText.iso($0, service.timeZone)) }
        }
    }
}
