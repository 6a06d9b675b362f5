import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments
import VoiceAlarmHTTP

/// `/api/clips…`: the recordings, as `clip …` commands handle them.
enum ClipHandlers {
    /// `GET /api/clips`: `clip list`.
    static func list(_ context: WebContext) throws -> HTTPResponse {
        try context.withLibrary { service in WebJSON.response(200, try service.clips.all().map { ClipJSON($0, service) }) }
    }

    /// `POST /api/clips?title=TITLE`, the body the recording in any format FFmpeg reads: a take,
    /// imported as `clip import --salvage` does — up to its last whole frame (a browser's
    /// recording may stop in the middle of one), `"cutOff"` saying what was left out — or not at all.
    static func add(_ context: WebContext) throws -> HTTPResponse {
        let request = context.request
        let title = request.query["title"].flatMap { $0.isEmpty ? nil : $0 }
        if let title, let problem = ClipTitle.problem(title) { throw WebFailure(status: 400, message: "title: \(problem)", input: title, code: 64) }
        switch request.body {
        case .file(let path, _):
            return try context.withLibrary { service in
                do {
                    let stored = try service.clips.store(
                        path, title: title ?? recordingTitle(context.configuration.now(), service.timeZone), damage: .keepWhatDecodes)
                    return WebJSON.response(201, KeptClipJSON(stored.clip, cutOff: stored.cutOff, service))
                } catch {
                    // The refusal names the upload, not the private file it waited in.
                    var failure = WebFailure(error)
                    failure.message = failure.message.replacingOccurrences(of: path, with: "the upload")
                    failure.input = "the upload"
                    throw failure
                }
            }
        case .tooLarge(let limit):
            throw WebFailure(status: 413, message: "the upload is larger than \(limit / (1024 * 1024)) MB: nothing was imported", code: 1)
        case .unsaved:
            // Its reason names the private file it was written to: not the phone's business.
            throw WebFailure(status: 507, message: WebFailure.diskFull)
        case .empty, .data:
            throw WebFailure(status: 400, message: "the request has no recording: send the audio as the body", code: 64)
        }
    }

    /// `POST /api/clips/say` `{"text", "title", "voice"}`: `clip say`.
    static func say(_ context: WebContext) throws -> HTTPResponse {
        struct Body: Decodable { var text: String; var title: String?; var voice: String? }
        let body = try WebJSON.decode(Body.self, from: context.request)
        if let problem = SpokenText.problem(body.text) { throw WebFailure(status: 400, message: "text: \(problem)", input: body.text, code: 64) }
        return try context.withLibrary { service in
            WebJSON.response(201, ClipJSON(try service.clips.say(body.text, title: body.title, voice: body.voice).clip, service))
        }
    }

    /// `PUT /api/clips/{id}` `{"title"}`: `clip rename`.
    static func rename(_ context: WebContext) throws -> HTTPResponse {
        struct Body: Decodable { var title: String }
        let title = try WebJSON.decode(Body.self, from: context.request).title
        return try context.withLibrary { service in
            WebJSON.response(200, ClipJSON(try service.clips.rename(context.parameter("id"), to: title), service))
        }
    }

    /// `DELETE /api/clips/{id}` (`?force=true` for one alarms play): `clip remove`.
    static func remove(_ context: WebContext) throws -> HTTPResponse {
        try context.withLibrary { service in
            let removed = try service.clips.remove([context.parameter("id")], force: context.request.query["force"] == "true")
            return WebJSON.response(
                200,
                RemovedJSON(
                    removed: removed.clips.map(\.idString), targets: removed.targets.map(\.description),
                    rebuilds: RebuildJSON(removed.summary)))
        }
    }

    /// `GET /api/clips/{id}/audio`: the stored recording.
    static func audio(_ context: WebContext) throws -> HTTPResponse {
        try context.withLibrary { service in
            let clip = try service.clips.resolve(context.parameter("id"))
            return HTTPResponse(status: 200, headers: [("Content-Type", WebJSON.audioType(clip.fileName))], body: .file(path: service.clips.path(of: clip)))
        }
    }

    /// "Recording Wed 2 Dec 07:15": a recording from the page is named by when it was made.
    static func recordingTitle(_ date: Date, _ zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "EEE d MMM HH:mm"
        return "Recording \(formatter.string(from: date))"
    }
}
