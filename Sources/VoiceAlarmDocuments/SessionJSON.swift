import Foundation
import VoiceAlarmCore

/// A paired page's session, as `POST /api/session` answers it: `{"session", "expires"}`. The
/// page keeps it in memory only and sends it as `X-VoiceAlarm-Session`.
package struct SessionJSON: Encodable {
    package var session: String
    package var expires: String

    package init(session: String, expires: Date) {
        self.session = session
        self.expires = LocalTimeText.iso(expires, TimeZone(identifier: "UTC") ?? .current)
    }
}
