import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// Everything the page shows, in one document (`GET /api/state`): the alarms as `GET
/// /api/alarms` lists them, the recordings, the playlists, the manifesto, the status and the
/// paired devices — each the same document as its own route's, so the page holds one copy of
/// what the machine said. `LiveState` keeps it and its version.
struct WebState: Encodable {
    var alarms: [AlarmJSON]
    var clips: [ClipJSON]
    var playlists: [TargetJSON]
    var manifesto: TargetJSON
    var status: WebStatus
    var devices: [DeviceJSON]
    /// The holidays imported from today on (the page offers "Not on holidays" once there are some).
    var holidays: [HolidayJSON]

    init(service: AlarmService, location: LibraryLocation, cache: HealthCache, devices registry: DeviceRegistry) throws {
        alarms = AlarmHandlers.shown(try service.alarms.statuses(), all: false).map { AlarmJSON($0, service.timeZone) }
        clips = try service.clips.all().map { ClipJSON($0, service) }
        playlists = try service.playlists.names().map { try PlaylistHandlers.target(.playlist($0), service) }
        manifesto = try PlaylistHandlers.target(.manifesto, service)
        status = try WebStatus(service: service, location: location, cache: cache)
        devices = try registry.all().map { DeviceJSON($0, service.timeZone) }
        let today = LocalDate(service.now(), in: service.timeZone)
        holidays = try service.holidays.list().filter { $0.date >= today }.map(HolidayJSON.init)
    }
}
