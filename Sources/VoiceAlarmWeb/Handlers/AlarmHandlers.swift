import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments
import VoiceAlarmHTTP

/// `/api/alarms…`: each parses its request, calls the service once, and answers with the
/// document `--json` prints for the same command.
enum AlarmHandlers {
    /// `GET /api/alarms` (`?all=true` for rung one-offs too): `alarm list`.
    static func list(_ context: WebContext) throws -> HTTPResponse {
        try context.withLibrary { service in
            let all = try service.alarms.statuses()
            let shown = context.request.query["all"] == "true" ? all : all.filter { $0.next != nil || $0.alarm.date == nil }
            return WebJSON.response(200, shown.map { AlarmJSON($0, service.timeZone) })
        }
    }

    /// `POST /api/alarms` `{"target", "at", "days", "date", "label", "voice", "snooze"}`: the same
    /// rules and words as `alarm add`, and its `{"alarm", "notes"}` (with the backup tip as a note).
    static func add(_ context: WebContext) throws -> HTTPResponse {
        struct Body: Decodable {
            var target: String, at: String, days: String?, date: String?, label: String?, voice: Bool?, snooze: Int?
        }
        let body = try WebJSON.decode(Body.self, from: context.request)
        let input = try AlarmInput(target: body.target, at: body.at, days: body.days, date: body.date, label: body.label, snooze: body.snooze)
        return try context.withLibrary { service in
            let added = try service.alarms.add(
                on: input.target, at: input.time, days: input.days, date: input.date, label: input.label,
                voice: body.voice ?? true, snoozeMinutes: input.snooze)
            let notes = AlarmNotes.afterAdding(added, service: service)
            return WebJSON.response(201, AddedJSON(alarm: AlarmJSON(added.status, service.timeZone), notes: notes))
        }
    }

    /// `DELETE /api/alarms/{id}`: `{"removed": [ids]}`.
    static func remove(_ context: WebContext) throws -> HTTPResponse {
        try context.withLibrary { service in
            let removed = try service.alarms.remove([context.parameter("id")])
            return WebJSON.response(200, ["removed": removed.map { $0.uuidString.lowercased() }])
        }
    }

    /// `PUT /api/alarms/{id}/voice` `{"on": false}`: `voice on`/`voice off`; off deletes the voice file.
    static func setVoice(_ context: WebContext) throws -> HTTPResponse {
        struct Body: Decodable { var on: Bool }
        let on = try WebJSON.decode(Body.self, from: context.request).on
        return try context.withLibrary { service in
            WebJSON.response(200, AlarmJSON(try service.alarms.setVoice(on, for: context.parameter("id")), service.timeZone))
        }
    }

    /// `GET /api/alarms/{id}/ringtone`: the voice ringtone itself; 404 while it rings the default tone.
    static func ringtone(_ context: WebContext) throws -> HTTPResponse {
        try context.withLibrary { service in
            let id = context.parameter("id")
            let status = try service.alarms.status(of: try service.alarms.id(id))
            guard case .voice(let file) = status.sound else {
                throw WebFailure(
                    status: 404, message: "the alarm at \(status.alarm.time) plays the standard sound (\(status.sound.reason ?? "")): it has no voice ringtone",
                    input: id)
            }
            return HTTPResponse(status: 200, headers: [("Content-Type", WebJSON.audioType(file))], body: .file(path: "\(service.soundsDirectory)/\(file)"))
        }
    }
}
