import Foundation
import VoiceAlarmCore
import VoiceAlarmHTTP

/// `GET /api/state`: the page's live state (`WebState`, kept by `LiveState`).
enum StateHandlers {
    /// The longest a request waits for a change, in seconds: under the server's idle timeout
    /// (30 s) and the proxies' usual minute, and long enough that a tab costs a request every 25 s.
    static let longestWait = 25.0

    /// `GET /api/state` answers at once; `?after=VERSION` answers at once when the state's
    /// version is another, else when it changes, or 204 (no body) after `longestWait` (or
    /// `wait=SECONDS`, less) with nothing new. `{"version", "serverTime", …WebState}`.
    static func state(_ context: WebContext) throws -> HTTPResponse {
        let live = context.live
        let snapshot: LiveState.Snapshot
        if let after = context.request.query["after"] {
            let asked = context.request.query["wait"].flatMap(Double.init) ?? longestWait
            guard asked.isFinite, asked >= 0 else {
                throw WebFailure(status: 400, message: "wait: '\(context.request.query["wait"] ?? "")' is not a number of seconds", input: "wait", code: 64)
            }
            guard let changed = try live.next(after: after, within: min(asked, longestWait)) else {
                return HTTPResponse(status: 204, headers: [], body: .data(Data()))
            }
            snapshot = changed
        } else {
            snapshot = try live.current()
        }
        // The document is a JSON object: the version and the server's time go in first, the
        // kept document's members after them (it is never decoded and encoded again per tab).
        let now = context.configuration.now()
        let head = "{\n  \"serverTime\" : \"\(LocalTimeText.iso(now, .current))\",\n  \"version\" : \"\(snapshot.version)\",\n"
        var body = Data(head.utf8)
        body.append(snapshot.document.dropFirst().drop { $0 == UInt8(ascii: "\n") })
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/json; charset=utf-8")], body: .data(body))
    }
}
