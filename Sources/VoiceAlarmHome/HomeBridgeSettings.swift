import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles

/// How the bridge reaches the broker and names its topics, remembered in `<data-dir>/mqtt.json`
/// (0600) once given, as the library's other settings are: the systemd unit and a later
/// `voicealarm mqtt` need no options. The password is never kept here, only the file that holds it.
package struct HomeBridgeSettings: Codable, Equatable, Sendable {
    package static let fileName = "mqtt.json"
    /// The longest password file read.
    package static let passwordLimit = 4096

    package var host: String
    package var port: Int
    package var username: String?
    package var passwordFile: String?
    /// A PEM file of the CA that signed the broker's certificate: TLS.
    package var tlsCA: String?
    package var clientID: String?
    package var discoveryPrefix: String?
    package var topicBase: String?
    /// Minutes before a ring that the `pre_alarm` event comes.
    package var preAlarmMinutes: Int
    /// Connect although the broker lets anyone in (warned of each start).
    package var allowAnonymousBroker: Bool

    package init(host: String = "localhost", port: Int = 1883) {
        self.host = host
        self.port = port
        preAlarmMinutes = 10
        allowAnonymousBroker = false
    }

    /// What a setting is refused for.
    package enum Refusal: ClassifiedError, Equatable, Sendable, CustomStringConvertible {
        case unreadable(path: String, reason: String)
        case exposed(path: String, permissions: Int)
        case tooLarge(path: String)
        case damaged(path: String, reason: String)
        case noBroker

        package var failureKind: FailureKind {
            switch self {
            case .noBroker: .malformed
            case .unreadable, .exposed, .tooLarge, .damaged: .environment
            }
        }
        package var failureInput: String? {
            switch self {
            case .unreadable(let path, _), .exposed(let path, _), .tooLarge(let path), .damaged(let path, _): path
            case .noBroker: "--broker"
            }
        }
        package var description: String {
            switch self {
            case .unreadable(let path, let reason): "\(path): cannot be read (\(reason))"
            case .exposed(let path, let permissions):
                "\(path): others may read it (mode \(String(permissions, radix: 8))); 'chmod 600 \(path)' and try again"
            case .tooLarge(let path): "\(path): larger than \(HomeBridgeSettings.passwordLimit) bytes; it is not a password file"
            case .damaged(let path, let reason): "\(path): not the bridge's settings (\(reason)); give --broker again to write it anew"
            case .noBroker: "no broker is known yet: give --broker HOST:PORT once (it is remembered)"
            }
        }
    }

    /// The settings remembered for `dataDirectory`, or nil when none were.
    /// - Throws: `Refusal.damaged` for a file that is not settings.
    package static func remembered(in dataDirectory: String) throws(Refusal) -> HomeBridgeSettings? {
        let path = "\(dataDirectory)/\(fileName)"
        guard let data = FileSystem.contents(path) else { return nil }
        do { return try JSONDecoder().decode(Self.self, from: data) } catch { throw .damaged(path: path, reason: "\(error)") }
    }

    /// Keeps these settings for `dataDirectory` (atomically, 0600).
    package func remember(in dataDirectory: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try FileSystem.atomicWrite(try encoder.encode(self), to: "\(dataDirectory)/\(Self.fileName)", permissions: 0o600)
    }

    /// The password in `passwordFile` (its first line), refused when others may read the file.
    /// - Throws: `Refusal`.
    package func password() throws(Refusal) -> String? {
        guard let path = passwordFile else { return nil }
        let stamp: FileSystem.Status
        do { stamp = try FileSystem.status(of: path) } catch { throw .unreadable(path: path, reason: error.code == ENOENT ? "no such file" : error.reason) }
        guard stamp.kind == .regular else { throw .unreadable(path: path, reason: "it is \(stamp.kind), not a file") }
        guard stamp.permissions & 0o006 == 0 else { throw .exposed(path: path, permissions: stamp.permissions) }
        guard stamp.size <= Self.passwordLimit else { throw .tooLarge(path: path) }
        guard let text = FileSystem.text(path) else { throw .unreadable(path: path, reason: "not UTF-8 text, or unreadable") }
        return String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
