/// What a request asks for, read from its method and path alone. Ids and names stay text here:
/// they are looked up in the library, never joined into a path.
package enum WebRoute: Equatable, Sendable {
    // Open to anyone: the pairing page and what it needs.
    case pairPage, pairScript, deviceScript, style, pair
    // A paired browser's cookie alone: its page's session handshake (`DeviceSessions`).
    case session
    // A paired device or token only.
    case page, appScript
    case alarms, addAlarm, removeAlarm(String), setVoice(String), alarmRingtone(String)
    case clips, addClip, sayClip, renameClip(String), removeClip(String), clipAudio(String)
    case playlists, playlist(String), createPlaylist, setPlaylist(String), deletePlaylist(String)
    case manifesto, setManifesto
    case picture(String)
    case status, stop, snooze
    case devices, revokeDevice(String)
    /// A path no route has.
    case unknown
    /// A path a route has, with a method it does not take.
    case methodNotAllowed(allowed: [String])

    /// Whether anyone may ask it, paired or not.
    package var isOpen: Bool {
        switch self {
        case .pairPage, .pairScript, .deviceScript, .style, .pair, .unknown, .methodNotAllowed: true
        default: false
        }
    }

    /// Whether it changes anything (and so must come from our own page or a token).
    package var changesState: Bool {
        switch self {
        case .pair, .session, .addAlarm, .removeAlarm, .setVoice, .addClip, .sayClip, .renameClip, .removeClip,
             .createPlaylist, .setPlaylist, .deletePlaylist, .setManifesto, .stop, .snooze, .revokeDevice: true
        default: false
        }
    }

    /// Whether a paired browser needs its page's signed session as well as its cookie: on every
    /// route but the page itself (which holds nothing of the library) and the handshake.
    package var needsSession: Bool {
        switch self {
        case .page, .appScript, .session: false
        default: !isOpen
        }
    }

    /// Whether its answer is a JSON document (an API route) rather than a page or a file.
    package var isAPI: Bool {
        switch self {
        case .pairPage, .pairScript, .deviceScript, .style, .page, .appScript: false
        default: true
        }
    }

    package init(method: String, segments: [String]) {
        let routes = Self.routes(segments)
        guard !routes.isEmpty else {
            self = .unknown
            return
        }
        if let route = routes.first(where: { $0.method == method || (method == "HEAD" && $0.method == "GET") }) {
            self = route.route
        } else {
            self = .methodNotAllowed(allowed: routes.map(\.method))
        }
    }

    /// Every route at a path, with its method.
    private static func routes(_ s: [String]) -> [(method: String, route: WebRoute)] {
        switch s.count {
        case 0: return [("GET", .page)]
        case 1:
            switch s[0] {
            case "pair": return [("GET", .pairPage)]
            case "pair.js": return [("GET", .pairScript)]
            case "device.js": return [("GET", .deviceScript)]
            case "app.js": return [("GET", .appScript)]
            case "style.css": return [("GET", .style)]
            default: return []
            }
        default: break
        }
        guard s[0] == "api" else { return [] }
        let rest = Array(s.dropFirst())
        switch (rest.count, rest.first ?? "") {
        case (1, "pair"): return [("POST", .pair)]
        case (1, "session"): return [("POST", .session)]
        case (1, "alarms"): return [("GET", .alarms), ("POST", .addAlarm)]
        case (2, "alarms"): return [("DELETE", .removeAlarm(rest[1]))]
        case (3, "alarms") where rest[2] == "voice": return [("PUT", .setVoice(rest[1]))]
        case (3, "alarms") where rest[2] == "ringtone": return [("GET", .alarmRingtone(rest[1]))]
        case (1, "clips"): return [("GET", .clips), ("POST", .addClip)]
        case (2, "clips") where rest[1] == "say": return [("POST", .sayClip)]
        case (2, "clips"): return [("PUT", .renameClip(rest[1])), ("DELETE", .removeClip(rest[1]))]
        case (3, "clips") where rest[2] == "audio": return [("GET", .clipAudio(rest[1]))]
        case (1, "playlists"): return [("GET", .playlists), ("POST", .createPlaylist)]
        case (2, "playlists"): return [("GET", .playlist(rest[1])), ("PUT", .setPlaylist(rest[1])), ("DELETE", .deletePlaylist(rest[1]))]
        case (1, "manifesto"): return [("GET", .manifesto), ("PUT", .setManifesto)]
        case (2, "picture"): return [("GET", .picture(rest[1]))]
        case (1, "status"): return [("GET", .status)]
        case (1, "stop"): return [("POST", .stop)]
        case (1, "snooze"): return [("POST", .snooze)]
        case (1, "devices"): return [("GET", .devices)]
        case (2, "devices"): return [("DELETE", .revokeDevice(rest[1]))]
        default: return []
        }
    }
}
