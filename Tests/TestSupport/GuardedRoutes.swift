/// The web page's routes that a paired device or a token may use, with a method each takes:
/// what the in-process and the real-server tests both refuse without one.
public enum GuardedRoutes {
    public static let all: [(String, String)] = [
        ("GET", "/"), ("GET", "/app.js"),
        ("GET", "/api/alarms"), ("POST", "/api/alarms"), ("DELETE", "/api/alarms/9c41d2e0"), ("PUT", "/api/alarms/9c41d2e0/voice"),
        ("GET", "/api/alarms/9c41d2e0/ringtone"),
        ("GET", "/api/clips"), ("POST", "/api/clips"), ("POST", "/api/clips/say"), ("PUT", "/api/clips/3f2a9c1e"), ("DELETE", "/api/clips/3f2a9c1e"),
        ("GET", "/api/clips/3f2a9c1e/audio"),
        ("GET", "/api/playlists"), ("POST", "/api/playlists"), ("GET", "/api/playlists/morning"), ("PUT", "/api/playlists/morning"),
        ("DELETE", "/api/playlists/morning"), ("GET", "/api/manifesto"), ("PUT", "/api/manifesto"), ("GET", "/api/picture/morning"),
        ("POST", "/api/session"), ("GET", "/api/status"), ("POST", "/api/stop"), ("POST", "/api/snooze"), ("GET", "/api/devices"), ("DELETE", "/api/devices/5b1e09c2"),
    ]
}
