import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmMQTT

extension HomeBridge {
    /// A bridge to the broker `settings` name, over libmosquitto, with its last will (offline) and
    /// the anonymous-broker check.
    /// - Throws: `Failure.broker` when libmosquitto refuses the options (a CA file it cannot use).
    package convenience init(
        settings: HomeBridgeSettings, password: String?, topics: HomeTopics, version: String, location: LibraryLocation,
        open: @escaping () throws -> AlarmService, now: @escaping @Sendable () -> Date, log: @escaping (String) -> Void,
        firstConnected: @escaping () -> Void
    ) throws(Failure) {
        let clientID = settings.clientID ?? "voicealarm-\(topics.node)"
        var options = MQTTClient.Options(clientID: clientID, username: settings.username, password: password, caFile: settings.tlsCA)
        options.will = (topics.availability, "offline")
        let link: MosquittoLink
        do { link = try MosquittoLink(host: settings.host, port: settings.port, options: options) } catch { throw .broker(error) }
        let probe = MQTTClient.Options(clientID: "\(clientID)-probe", caFile: settings.tlsCA)
        let (host, port) = (settings.host, settings.port)
        self.init(
            .init(topics: topics, preAlarmMinutes: settings.preAlarmMinutes, version: version, allowAnonymousBroker: settings.allowAnonymousBroker),
            location: location, link: link, brokerName: "\(host):\(port)",
            acceptsAnonymous: { Self.acceptsAnonymous(host: host, port: port, options: probe) }, open: open, now: now, log: log,
            firstConnected: firstConnected)
    }

    /// Whether the broker lets a client in with no user name or password: a second, short-lived
    /// connection tries (3 s at most); nil when it could not tell.
    static func acceptsAnonymous(host: String, port: Int, options: MQTTClient.Options) -> Bool? {
        guard let client = try? MQTTClient(options), (try? client.connect(host: host, port: port)) != nil else { return nil }
        defer { client.disconnect() }
        let deadline = Date().addingTimeInterval(3)
        while Date() < deadline {
            for happening in client.pump(timeout: 0.1) {
                switch happening {
                case .connected: return true
                case .lost(.refused): return false
                case .lost: return nil
                case .message: break
                }
            }
        }
        return nil
    }
}
