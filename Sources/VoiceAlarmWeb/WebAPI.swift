import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments
import VoiceAlarmHTTP

/// The JSON API's routes over one opened library: each parses its request, calls the service
/// once, and answers with the document `--json` prints for the same command.
struct WebAPI {
    let service: AlarmService
    let configuration: WebApplication.Configuration

    func answer(_ route: WebRoute, _ request: HTTPRequest) throws -> HTTPResponse {
        let zone = service.timeZone
        switch route {
        case .alarms:
            let all = try service.alarms.statuses()
            let shown = request.query["all"] == "true" ? all : all.filter { $0.next != nil || $0.alarm.date == nil }
            return Self.json(200, shown.map { AlarmJSON($0, zone) })
        case .addAlarm: return try addAlarm(request)
        case .removeAlarm(let id):
            let removed = try service.alarms.remove([id])
            return Self.json(200, ["removed": removed.map { $0.uuidString.lowercased() }])
        case .setVoice(let id):
            struct Body: Decodable { var on: Bool }
            let status = try service.alarms.setVoice(try Self.decode(Body.self, from: request).on, for: id)
            return Self.json(200, AlarmJSON(status, zone))
        case .alarmRingtone(let id):
            let status = try service.alarms.status(of: try service.alarms.id(id))
            guard case .voice(let file) = status.sound else {
                throw WebFailure(status: 404, message: "alarm \(status.alarm.idString) rings with the default tone (\(status.sound.reason ?? "")): it has no voice ringtone", input: id)
            }
            return HTTPResponse(status: 200, headers: [("Content-Type", Self.audioType(file))], body: .file(path: "\(service.soundsDirectory)/\(file)"))
        case .clips: return Self.json(200, try service.clips.all().map { ClipJSON($0, service) })
        case .addClip: return try addClip(request)
        case .sayClip:
            struct Body: Decodable { var text: String; var title: String?; var voice: String? }
            let body = try Self.decode(Body.self, from: request)
            if let problem = SpokenText.problem(body.text) { throw WebFailure(status: 400, message: "text: \(problem)", input: body.text, code: 64) }
            let clip = try service.clips.say(body.text, title: body.title, voice: body.voice).clip
            return Self.json(201, ClipJSON(clip, service))
        case .renameClip(let id):
            struct Body: Decodable { var title: String }
            return Self.json(200, ClipJSON(try service.clips.rename(id, to: try Self.decode(Body.self, from: request).title), service))
        case .removeClip(let id):
            let removed = try service.clips.remove([id], force: request.query["force"] == "true")
            return Self.json(200, RemovedJSON(removed: removed.clips.map(\.idString), targets: removed.targets.map(\.description), rebuilds: RebuildJSON(removed.summary)))
        case .clipAudio(let id):
            let clip = try service.clips.resolve(id)
            return HTTPResponse(status: 200, headers: [("Content-Type", Self.audioType(clip.fileName))], body: .file(path: service.clips.path(of: clip)))
        case .playlists:
            return Self.json(200, try service.playlists.names().map { try target(.playlist($0)) })
        case .playlist(let name): return Self.json(200, try target(.playlist(name)))
        case .createPlaylist:
            struct Body: Decodable { var name: String; var clips: [String]? }
            let body = try Self.decode(Body.self, from: request)
            try service.playlists.create(body.name, clips: body.clips ?? [])
            return Self.json(201, try target(.playlist(body.name)))
        case .setPlaylist(let name):
            struct Body: Decodable { var clips: [String]?; var name: String? }
            let body = try Self.decode(Body.self, from: request)
            // Every clip is looked up before anything changes: an unknown one changes nothing.
            let clips = try body.clips.map { try $0.map { try service.clips.resolve($0).idString } }
            var current = name
            if let newName = body.name, newName != name { current = try service.playlists.rename(name, to: newName).target.description }
            let summary = try clips.map { try service.playlists.replace(in: current, with: $0) }
            return Self.json(200, try target(.playlist(current), rebuilds: summary))
        case .deletePlaylist(let name):
            let removed = try service.playlists.delete(name, withAlarms: request.query["withAlarms"] == "true")
            return Self.json(200, DeletedJSON(name: name, removedAlarms: removed.map { $0.uuidString.lowercased() }))
        case .manifesto: return Self.json(200, try target(.manifesto))
        case .setManifesto:
            struct Body: Decodable { var clip: String }
            let summary = try service.playlists.setManifesto(try Self.decode(Body.self, from: request).clip)
            return Self.json(200, try target(.manifesto, rebuilds: summary))
        case .picture(let reference):
            let shown = try RingtoneShow(service: service).show(reference)
            return HTTPResponse.text(200, shown.picture.svg(width: 720), contentType: "image/svg+xml; charset=utf-8")
        case .status: return Self.json(200, try WebStatus(service: service, location: configuration.location))
        case .snooze:
            do {
                return Self.json(200, try service.snoozes.snooze().map { SnoozedJSON($0, zone) })
            } catch let refusal as Snoozer.Refusal {
                throw WebFailure(status: 409, message: refusal.description)
            }
        case .devices:
            let devices = DeviceRegistry(store: service.store, secrets: configuration.secrets, now: configuration.now)
            return Self.json(200, try devices.all().map { DeviceJSON($0, zone) })
        case .revokeDevice(let id):
            let devices = DeviceRegistry(store: service.store, secrets: configuration.secrets, now: configuration.now)
            return Self.json(200, DeviceJSON(try devices.revoke(id), zone))
        case .pairPage, .pairScript, .deviceScript, .style, .pair, .session, .page, .appScript, .stop, .unknown, .methodNotAllowed:
            // Answered by the application before the library opens; never a crash on a request.
            throw WebFailure(status: 404, message: "\(request.path): no such API route", input: request.path)
        }
    }

    /// `POST /api/alarms` `{"target", "at", "days", "date", "label", "voice", "snooze"}`: the same
    /// rules and words as `alarm add`, and its `{"alarm", "notes"}` (with the backup tip as a note).
    private func addAlarm(_ request: HTTPRequest) throws -> HTTPResponse {
        struct Body: Decodable {
            var target: String, at: String, days: String?, date: String?, label: String?, voice: Bool?, snooze: Int?
        }
        let body = try Self.decode(Body.self, from: request)
        let input = try AlarmInput(target: body.target, at: body.at, days: body.days, date: body.date, label: body.label, snooze: body.snooze)
        let added = try service.alarms.add(on: input.target, at: input.time, days: input.days, date: input.date, label: input.label,
                                           voice: body.voice ?? true, snoozeMinutes: input.snooze)
        let notes = AlarmNotes.afterAdding(added, service: service)
        return Self.json(201, AddedJSON(alarm: AlarmJSON(added.status, service.timeZone), notes: notes))
    }

    /// `POST /api/clips?title=TITLE`, the body the recording in any format FFmpeg reads: imported
    /// as `clip import` does, whole or not at all.
    private func addClip(_ request: HTTPRequest) throws -> HTTPResponse {
        let title = request.query["title"].flatMap { $0.isEmpty ? nil : $0 }
        if let title, let problem = ClipTitle.problem(title) { throw WebFailure(status: 400, message: "title: \(problem)", input: title, code: 64) }
        switch request.body {
        case .file(let path, _):
            do {
                let clip = try service.clips.add(path, title: title ?? Self.recordingTitle(configuration.now(), service.timeZone))
                return Self.json(201, ClipJSON(clip, service))
            } catch {
                // The refusal names the upload, not the private file it waited in.
                var failure = WebFailure(error)
                failure.message = failure.message.replacingOccurrences(of: path, with: "the upload")
                failure.input = "the upload"
                throw failure
            }
        case .tooLarge(let limit):
            throw WebFailure(status: 413, message: "the upload is larger than \(limit / (1024 * 1024)) MB: nothing was imported", code: 1)
        case .unsaved(let reason):
            throw WebFailure(status: 507, message: "the upload could not be kept (\(reason)): nothing was imported")
        case .empty, .data:
            throw WebFailure(status: 400, message: "the request has no recording: send the audio as the body", code: 64)
        }
    }

    private func target(_ target: Target, rebuilds: RebuildSummary? = nil) throws -> TargetJSON {
        let resolved = try service.playlists.existing(target)
        return TargetJSON(resolved, clips: try service.playlists.clips(of: resolved), rebuilds: rebuilds)
    }

    /// "Recording Wed 2 Dec 07:15": a recording from the page is named by when it was made.
    static func recordingTitle(_ date: Date, _ zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "EEE d MMM HH:mm"
        return "Recording \(formatter.string(from: date))"
    }

    static func audioType(_ fileName: String) -> String {
        switch (fileName as NSString).pathExtension.lowercased() {
        case "m4a": "audio/mp4"
        case "mp3": "audio/mpeg"
        case "wav": "audio/wav"
        case "flac": "audio/flac"
        case "caf": "audio/x-caf"
        case "aiff", "aif": "audio/aiff"
        default: "application/octet-stream"
        }
    }

    /// The request's JSON body as `T`; a 400 with the reason when it is not.
    static func decode<T: Decodable>(_ type: T.Type, from request: HTTPRequest) throws -> T {
        guard case .data(let data) = request.body else {
            if case .tooLarge(let limit) = request.body {
                throw WebFailure(status: 413, message: "the request body is larger than \(limit / 1024) KB", code: 64)
            }
            throw WebFailure(status: 400, message: "the request has no JSON body", code: 64)
        }
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let DecodingError.keyNotFound(key, _) {
            throw WebFailure(status: 400, message: "the JSON body has no '\(key.stringValue)'", input: key.stringValue, code: 64)
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            let key = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw WebFailure(status: 400, message: "the JSON body's '\(key)' has the wrong type", input: key, code: 64)
        } catch {
            throw WebFailure(status: 400, message: "the request body is not JSON", code: 64)
        }
    }

    static func json<T: Encodable>(_ status: Int, _ value: T) -> HTTPResponse {
        HTTPResponse.text(status, JSONOutput.encode(value) + "\n", contentType: "application/json; charset=utf-8")
    }
}
