import Foundation
import VoiceAlarm
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmDocuments
import VoiceAlarmHTTP

/// `/api/alarms…`: each parses its request, calls the service once, and answers with the
/// document `--json` prints for the same command.
enum AlarmHandlers {
    /// `GET /api/alarms` (`?all=true` for rung one-offs too): `alarm list`.
    static func list(_ context: WebContext) throws -> HTTPResponse {
        try context.withLibrary { service in
            let shown = Self.shown(try service.alarms.statuses(), all: context.request.query["all"] == "true")
            return WebJSON.response(200, shown.map { AlarmJSON($0, service.timeZone) })
        }
    }

    /// The alarms the page lists: all of them, or (the default) all but one-offs that have rung.
    static func shown(_ statuses: [AlarmStatus], all: Bool) -> [AlarmStatus] {
        all ? statuses : statuses.filter { !$0.hasFinished }
    }

    /// `POST /api/alarms` `{"target", "at", "days", "date", "label", "voice", "snooze"}`: the same
    /// rules and words as `alarm add`, and its `{"alarm", "notes"}` (with the backup tip as a note).
    static func add(_ context: WebContext) throws -> HTTPResponse {
        struct Body: Decodable {
            var target: String, at: String, days: String?, date: String?, label: String?, voice: Bool?, snooze: Int?, skipHolidays: Bool?
        }
        let body = try WebJSON.decode(Body.self, from: context.request)
        let input = try AlarmInput(target: body.target, at: body.at, days: body.days, date: body.date, label: body.label, snooze: body.snooze)
        return try context.withLibrary { service in
            let added = try service.alarms.add(
                on: input.target, at: input.time, days: input.days, date: input.date, label: input.label,
                voice: body.voice ?? true, snoozeMinutes: input.snooze, skipsHolidays: body.skipHolidays ?? false)
            let notes = AlarmNotes.afterAdding(added, service: service)
            return WebJSON.response(201, AddedJSON(alarm: AlarmJSON(added.status, service.timeZone), notes: notes))
        }
    }

    /// `PUT /api/alarms/{id}` `{"at", "days", "date", "label", "snooze", "target"}` (any of them):
    /// `alarm edit`, the same rules and words; the alarm under its own id.
    static func edit(_ context: WebContext) throws -> HTTPResponse {
        let edit = try AlarmInput.edit(try WebJSON.decode(AlarmInput.EditBody.self, from: context.request))
        return try context.withLibrary { service in
            WebJSON.response(200, AlarmJSON(try service.alarms.edit(context.parameter("id"), edit), service.timeZone))
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

    /// `PUT /api/alarms/{id}/on` `{"on": false}`: `alarm off` / `alarm on`: the alarm.
    static func setOn(_ context: WebContext) throws -> HTTPResponse {
        struct Body: Decodable { var on: Bool }
        let on = try WebJSON.decode(Body.self, from: context.request).on
        return try context.withLibrary { service in
            WebJSON.response(200, AlarmJSON(try service.alarms.setOn(on, for: context.parameter("id")), service.timeZone))
        }
    }

    /// `POST /api/alarms/{id}/skip` `{"date"}` or `{"until"}` (neither: the next ring): `alarm skip`.
    static func skip(_ context: WebContext) throws -> HTTPResponse {
        struct Body: Decodable { var date: String?, until: String? }
        let body = try WebJSON.decode(Body.self, from: context.request)
        let skip: SkipRules.Skip
        switch (body.date, body.until) {
        case (let date?, nil): skip = .dates([try Self.day(date, "date")])
        case (nil, let until?): skip = .until(try Self.day(until, "until"))
        case (nil, nil): skip = .next
        default: throw WebFailure(status: 400, message: "date and until exclude each other", input: "date", code: 64)
        }
        return try context.withLibrary { service in
            WebJSON.response(200, AlarmJSON(try service.alarms.skip(context.parameter("id"), skip), service.timeZone))
        }
    }

    /// `POST /api/alarms/{id}/unskip` `{"date"}` or `{"all": true}` (neither: the pause, else the
    /// earliest day — Undo and Resume): `alarm unskip`.
    static func unskip(_ context: WebContext) throws -> HTTPResponse {
        struct Body: Decodable { var date: String?, all: Bool? }
        let body = try WebJSON.decode(Body.self, from: context.request)
        let unskip: SkipRules.Unskip = body.all == true ? .all : try body.date.map { .date(try Self.day($0, "date")) } ?? .next
        return try context.withLibrary { service in
            WebJSON.response(200, AlarmJSON(try service.alarms.unskip(context.parameter("id"), unskip), service.timeZone))
        }
    }

    /// A day the page sent, or a 400 naming the field.
    private static func day(_ text: String, _ field: String) throws -> LocalDate {
        guard let day = LocalDate(parsing: text) else { throw WebFailure(status: 400, message: "\(field): \(LocalDate.refusal(text))", input: field, code: 64) }
        return day
    }

    /// `GET /api/holidays`: `holidays list`.
    static func holidays(_ context: WebContext) throws -> HTTPResponse {
        try context.withLibrary { service in WebJSON.response(200, try service.holidays.list().map(HolidayJSON.init)) }
    }

    /// `GET /api/alarms/{id}/ringtone`: what the alarm plays — its voice ringtone, or the
    /// standard sound (the default tone) while its voice is off or it rings with that; the
    /// `X-VoiceAlarm-Sound` header says which (`voice`, `standard`), so Listen always plays the truth.
    static func ringtone(_ context: WebContext) throws -> HTTPResponse {
        try context.withLibrary { service in
            let status = try service.alarms.status(of: try service.alarms.id(context.parameter("id")))
            if case .voice(let file) = status.sound {
                return HTTPResponse(
                    status: 200, headers: [("Content-Type", WebJSON.audioType(file)), ("X-VoiceAlarm-Sound", "voice")],
                    body: .file(path: "\(service.soundsDirectory)/\(file)"))
            }
            // As WAV: the ringing copy is caf, which only Safari plays.
            let tone = try DefaultTone.ensureForBrowsers(in: service.dataDirectory)
            return HTTPResponse(status: 200, headers: [("Content-Type", WebJSON.audioType(tone)), ("X-VoiceAlarm-Sound", "standard")], body: .file(path: tone))
        }
    }

    /// `POST /api/alarms/{id}/ring`: "Ring it here now" — the alarm daemon rings the alarm's
    /// sound on the bedside machine's speaker for `TestRing.seconds` (`TestRingDesk`); 202 with
    /// the test ring as the status says it. 409 with what the person can do instead when no
    /// daemon would ring it, the machine rings with systemd timers, or something rings now.
    static func testRing(_ context: WebContext) throws -> HTTPResponse {
        try context.withLibrary { service in
            do {
                let phase = try TestRingDesk(dataDirectory: service.dataDirectory).ask(context.parameter("id"), in: service)
                return WebJSON.response(202, ["testRing": TestRingJSON(phase, service.timeZone)])
            } catch let refusal as TestRingDesk.Refusal {
                throw WebFailure(status: 409, message: Self.sentence(refusal), input: context.parameter("id"))
            }
        }
    }

    /// What the person can do when a test ring cannot be asked, in the phone's words (no command
    /// line, no id: the page shows it as it is).
    static func sentence(_ refusal: TestRingDesk.Refusal) -> String {
        switch refusal {
        case .noDaemon:
            "No alarm service runs on the bedside machine, so nothing can ring there now — and your alarms would not ring either. "
                + "Start it from the top of the page where it offers to, or ask the machine's owner to start it; Listen plays this alarm on the phone meanwhile."
        case .systemdTimers:
            "This bedside machine rings its alarms with its own timers, which ring at their times only: "
                + "Listen plays this alarm on the phone, and the machine's owner can ring it at the machine."
        case .ringingNow: "An alarm is ringing now: stop it first, then ring this one."
        }
    }
}
