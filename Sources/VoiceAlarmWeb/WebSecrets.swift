import VoiceAlarm
import VoiceAlarmHTTP

/// The server's secrets: GnuTLS's random bytes for tokens and codes, SHA-256 digests to keep them.
package struct WebSecrets: SecretSource {
    package init() {}
    package func token() throws -> String { try Secret.token() }
    package func code() throws -> String { try Secret.code() }
    package func digest(_ secret: String) -> String { Secret.digest(secret) }
}
