import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments
import VoiceAlarmHTTP

/// `/api/playlists…` and `/api/manifesto`: what alarms play, as `playlist …` and `manifesto …` handle it.
enum PlaylistHandlers {
    /// `GET /api/playlists`: every playlist as `playlist show` prints it.
    static func list(_ context: WebContext) throws -> HTTPResponse {
        try context.withLibrary { service in WebJSON.response(200, try service.playlists.names().map { try target(.playlist($0), service) }) }
    }

    /// `GET /api/playlists/{name}`: `playlist show`.
    static func show(_ context: WebContext) throws -> HTTPResponse {
        try context.withLibrary { service in WebJSON.response(200, try target(.playlist(context.parameter("name")), service)) }
    }

    /// `POST /api/playlists` `{"name", "clips"}`: `playlist create`.
    static func create(_ context: WebContext) throws -> HTTPResponse {
        struct Body: Decodable { var name: String; var clips: [String]? }
        let body = try WebJSON.decode(Body.self, from: context.request)
        return try context.withLibrary { service in
            try service.playlists.create(body.name, clips: body.clips ?? [])
            return WebJSON.response(201, try target(.playlist(body.name), service))
        }
    }

    /// `PUT /api/playlists/{name}` `{"clips", "name"}`: its clips replaced and or its name changed;
    /// every clip is looked up before anything changes, so an unknown one changes nothing.
    static func replace(_ context: WebContext) throws -> HTTPResponse {
        struct Body: Decodable { var clips: [String]?; var name: String? }
        let body = try WebJSON.decode(Body.self, from: context.request)
        return try context.withLibrary { service in
            let name = context.parameter("name")
            let clips = try body.clips.map { try $0.map { try service.clips.resolve($0).idString } }
            var current = name
            if let newName = body.name, newName != name { current = try service.playlists.rename(name, to: newName).target.description }
            let summary = try clips.map { try service.playlists.replace(in: current, with: $0) }
            return WebJSON.response(200, try target(.playlist(current), service, rebuilds: summary))
        }
    }

    /// `DELETE /api/playlists/{name}` (`?withAlarms=true`): `playlist delete`.
    static func delete(_ context: WebContext) throws -> HTTPResponse {
        try context.withLibrary { service in
            let name = context.parameter("name")
            let removed = try service.playlists.delete(name, withAlarms: context.request.query["withAlarms"] == "true")
            return WebJSON.response(200, DeletedJSON(name: name, removedAlarms: removed.map { $0.uuidString.lowercased() }))
        }
    }

    /// `GET /api/manifesto`: `manifesto show`.
    static func manifesto(_ context: WebContext) throws -> HTTPResponse {
        try context.withLibrary { service in WebJSON.response(200, try target(.manifesto, service)) }
    }

    /// `PUT /api/manifesto` `{"clip"}`: `manifesto set`.
    static func setManifesto(_ context: WebContext) throws -> HTTPResponse {
        struct Body: Decodable { var clip: String }
        let clip = try WebJSON.decode(Body.self, from: context.request).clip
        return try context.withLibrary { service in
            WebJSON.response(200, try target(.manifesto, service, rebuilds: try service.playlists.setManifesto(clip)))
        }
    }

    /// `GET /api/picture/{target}`: the ringtone's picture (`show`) as SVG.
    static func picture(_ context: WebContext) throws -> HTTPResponse {
        try context.withLibrary { service in
            var picture = try RingtoneShow(service: service).show(context.parameter("target")).picture
            // The phone's caption is the length against the cap: the loudness figures are the terminal's.
            (picture.loudness, picture.truePeak) = (nil, nil)
            return HTTPResponse.text(200, picture.svg(width: 720), contentType: "image/svg+xml; charset=utf-8")
        }
    }

    static func target(_ target: Target, _ service: AlarmService, rebuilds: RebuildSummary? = nil) throws -> TargetJSON {
        let resolved = try service.playlists.existing(target)
        return TargetJSON(resolved, clips: try service.playlists.clips(of: resolved), capNote: try service.playlists.capNote(of: resolved), rebuilds: rebuilds)
    }
}
