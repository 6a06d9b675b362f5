import VoiceAlarmHTTP

/// Every route of the web page and its API, in one table: nothing else declares a route. The
/// middleware reads who may ask each one and the body it takes from here, and the tests that
/// refuse every guarded route without a device take their list from here too, so a new route
/// cannot skip the guard. docs/api.md describes each.
package enum WebRoutes {
    package static let all: [WebEndpoint] =
        declared
        // The page's modules, one route each, from their list.
        + PageAssets.modules.map { module in WebEndpoint("GET", module.path, .open) { _ in module.response } }

    private static let declared: [WebEndpoint] = [
        // The page's own files, open to anyone: they hold nothing of the library (every
        // document comes from the API below), and a phone opens them from its home screen and
        // its service worker keeps them (`sw.js`), before or without a session.
        WebEndpoint("GET", "/", .open) { _ in PageAssets.appPage },
        WebEndpoint("GET", "/pair", .open) { _ in PageAssets.pairPage },
        WebEndpoint("GET", "/style.css", .open) { _ in PageAssets.style },
        WebEndpoint("GET", "/manifest.webmanifest", .open) { _ in PageAssets.manifest },
        WebEndpoint("GET", "/sw.js", .open) { _ in PageAssets.serviceWorker },
        WebEndpoint("GET", "/icon.svg", .open) { _ in PageAssets.iconSVG },
        WebEndpoint("GET", "/icon-192.png", .open) { _ in PageAssets.icon(192) },
        WebEndpoint("GET", "/icon-512.png", .open) { _ in PageAssets.icon(512) },
        WebEndpoint("GET", "/apple-touch-icon.png", .open) { _ in PageAssets.icon(180) },
        // The library's certificate authority, for a phone to trust once: public, like any
        // authority's certificate; the person compares its fingerprint.
        WebEndpoint("GET", "/authority.crt", .open, AuthorityHandlers.certificate),
        WebEndpoint("GET", "/authority.mobileconfig", .open, AuthorityHandlers.profile),
        WebEndpoint("GET", "/api/authority", .open, AuthorityHandlers.describe),
        // Pairing, and a paired browser's session: a code, or a signature by the browser's key.
        WebEndpoint("POST", "/api/pair", .open, body: .json, DeviceHandlers.pair),
        WebEndpoint("POST", "/api/session", .open, body: .json, DeviceHandlers.session),
        // Alarms.
        WebEndpoint("GET", "/api/alarms", .paired, AlarmHandlers.list),
        WebEndpoint("POST", "/api/alarms", .paired, body: .json, AlarmHandlers.add),
        WebEndpoint("PUT", "/api/alarms/{id}", .paired, body: .json, AlarmHandlers.edit),
        WebEndpoint("DELETE", "/api/alarms/{id}", .paired, AlarmHandlers.remove),
        WebEndpoint("PUT", "/api/alarms/{id}/voice", .paired, body: .json, AlarmHandlers.setVoice),
        WebEndpoint("PUT", "/api/alarms/{id}/on", .paired, body: .json, AlarmHandlers.setOn),
        WebEndpoint("POST", "/api/alarms/{id}/skip", .paired, body: .json, AlarmHandlers.skip),
        WebEndpoint("POST", "/api/alarms/{id}/unskip", .paired, body: .json, AlarmHandlers.unskip),
        WebEndpoint("GET", "/api/alarms/{id}/ringtone", .paired, AlarmHandlers.ringtone),
        WebEndpoint("POST", "/api/alarms/{id}/ring", .paired, AlarmHandlers.testRing),
        WebEndpoint("GET", "/api/holidays", .paired, AlarmHandlers.holidays),
        // Clips.
        WebEndpoint("GET", "/api/clips", .paired, ClipHandlers.list),
        WebEndpoint("POST", "/api/clips", .paired, body: .upload, ClipHandlers.add),
        WebEndpoint("POST", "/api/clips/say", .paired, body: .json, ClipHandlers.say),
        WebEndpoint("PUT", "/api/clips/{id}", .paired, body: .json, ClipHandlers.rename),
        WebEndpoint("DELETE", "/api/clips/{id}", .paired, ClipHandlers.remove),
        WebEndpoint("GET", "/api/clips/{id}/audio", .paired, ClipHandlers.audio),
        // Playlists and the manifesto.
        WebEndpoint("GET", "/api/playlists", .paired, PlaylistHandlers.list),
        WebEndpoint("POST", "/api/playlists", .paired, body: .json, PlaylistHandlers.create),
        WebEndpoint("GET", "/api/playlists/{name}", .paired, PlaylistHandlers.show),
        WebEndpoint("PUT", "/api/playlists/{name}", .paired, body: .json, PlaylistHandlers.replace),
        WebEndpoint("DELETE", "/api/playlists/{name}", .paired, PlaylistHandlers.delete),
        WebEndpoint("GET", "/api/manifesto", .paired, PlaylistHandlers.manifesto),
        WebEndpoint("PUT", "/api/manifesto", .paired, body: .json, PlaylistHandlers.setManifesto),
        WebEndpoint("GET", "/api/picture/{target}", .paired, PlaylistHandlers.picture),
        // Everything the page shows, in one document, answered when it changes (a long poll).
        WebEndpoint("GET", "/api/state", .paired, StateHandlers.state),
        // Ringing and the machine.
        WebEndpoint("GET", "/api/status", .paired, RingHandlers.status),
        WebEndpoint("POST", "/api/stop", .paired, RingHandlers.stop),
        WebEndpoint("POST", "/api/snooze", .paired, RingHandlers.snooze),
        WebEndpoint("DELETE", "/api/snooze", .paired, RingHandlers.cancelSnooze),
        WebEndpoint("POST", "/api/service/start", .paired, RingHandlers.startService),
        // The library in one archive, for a new machine (as `voicealarm export` writes it).
        WebEndpoint("GET", "/api/backup", .paired, BackupHandlers.backup),
        // Devices.
        WebEndpoint("GET", "/api/devices", .paired, DeviceHandlers.list),
        WebEndpoint("DELETE", "/api/devices/{id}", .paired, DeviceHandlers.revoke),
    ]

    /// The table, ready to match requests.
    static let router = WebRouter(all)
}
