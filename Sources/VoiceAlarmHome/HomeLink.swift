import VoiceAlarmCore
import VoiceAlarmMQTT

/// The bridge's connection to a broker, as the bridge uses it: a seam, so the bridge's rules are
/// tried with a fake in milliseconds and with Mosquitto end to end (`MosquittoLink`).
package protocol HomeLink: AnyObject {
    /// Starts connecting (the outcome comes from `pump`).
    /// - Throws: `MQTTError` when it fails at once.
    func connect() throws(MQTTError)
    /// Reads and writes for up to `timeout` seconds; what happened.
    func pump(timeout: Double) -> [MQTTClient.Happening]
    /// Queues `message` for the broker.
    func publish(_ message: HomeMessage) throws(MQTTError)
    /// Subscribes to `filter` (QoS 1).
    func subscribe(_ filter: String) throws(MQTTError)
    /// Says goodbye (the will is not published) — availability is set offline first by the bridge.
    func close()
}

/// `HomeLink` over libmosquitto (`MQTTClient`).
package final class MosquittoLink: HomeLink {
    private let client: MQTTClient
    private let host: String
    private let port: Int
    private var started = false

    package init(host: String, port: Int, options: MQTTClient.Options) throws(MQTTError) {
        client = try MQTTClient(options)
        self.host = host
        self.port = port
    }

    package func connect() throws(MQTTError) {
        if started { try client.reconnect() } else { try client.connect(host: host, port: port) }
        started = true
    }

    package func pump(timeout: Double) -> [MQTTClient.Happening] { client.pump(timeout: timeout) }

    package func publish(_ message: HomeMessage) throws(MQTTError) {
        try client.publish(message.topic, Array(message.payload.utf8), qos: message.qos, retain: message.retain)
    }

    package func subscribe(_ filter: String) throws(MQTTError) { try client.subscribe(filter, qos: 1) }

    package func close() { client.disconnect() }
}
