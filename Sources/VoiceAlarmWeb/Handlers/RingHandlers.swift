import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments
import VoiceAlarmHTTP

/// `/api/status`, `/api/stop`, `/api/snooze`: the alarm ringing now, and the machine's health.
enum RingHandlers {
    /// `GET /api/status`: what rings, what is snoozed, and what `doctor` says (`WebStatus`).
    static func status(_ context: WebContext) throws -> HTTPResponse {
        try context.withLibrary { service in
            WebJSON.response(200, try WebStatus(service: service, location: context.configuration.location, cache: context.health))
        }
    }

    /// `POST /api/stop`: the rings stopped from the data dir alone, as `voicealarm stop` does;
    /// the library opens only to cancel their snoozes, so Stop works while a command holds it.
    static func stop(_ context: WebContext) throws -> HTTPResponse {
        let location = context.configuration.location, now = context.configuration.now
        let result = RingStopper.stop(in: location, open: { try LibraryOpener.open(location, now: now).0 })
        return WebJSON.response(200, StoppedJSON(result))
    }

    /// `POST /api/service/start`: starts the daemon's installed service (the page's "Start the
    /// alarm service" when nothing would ring); the status after it. 409 when there is no
    /// installed service a user manager runs (the page then says who must do what).
    static func startService(_ context: WebContext) throws -> HTTPResponse {
        try context.withLibrary { service in
            let location = context.configuration.location
            try DaemonService(service: service, location: location).start()
            context.health.forget()
            return WebJSON.response(200, try WebStatus(service: service, location: location, cache: context.health))
        }
    }

    /// `DELETE /api/snooze`: `snooze --cancel` ("I'm up"): `{"cancelled": [ids]}`; 409 when none waits.
    static func cancelSnooze(_ context: WebContext) throws -> HTTPResponse {
        try context.withLibrary { service in
            WebJSON.response(200, ["cancelled": try service.snoozes.cancelWaiting().map { $0.uuidString.lowercased() }])
        }
    }

    /// `POST /api/snooze`: `snooze`; 409 when nothing rings or its alarm has no snooze.
    static func snooze(_ context: WebContext) throws -> HTTPResponse {
        try context.withLibrary { service in WebJSON.response(200, try service.snoozes.snooze().map { SnoozedJSON($0, service.timeZone) }) }
    }
}
