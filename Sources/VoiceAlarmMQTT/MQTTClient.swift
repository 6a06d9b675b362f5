import CMosquitto
import Foundation

/// One connection to an MQTT broker through libmosquitto, driven by its owner's one thread: the
/// owner connects, then calls `pump` in its loop, which reads and writes the socket and returns
/// what happened (connected, refused, lost, a message). Nothing runs on a thread of its own and
/// no callback reaches the owner: libmosquitto calls back inside `pump`, and what it says is
/// collected and returned as values.
///
/// Connecting never blocks on the network (`mosquitto_connect_async`): a broker that is down or
/// far away shows up as a `.lost` happening from `pump`, and the owner decides when to try again.
///
/// ```swift
/// let client = try MQTTClient(.init(clientID: "voicealarm-bedside", username: "va", password: "…"))
/// try client.connect(host: "127.0.0.1", port: 1883)
/// for happening in client.pump(timeout: 0.5) { … }
/// ```
package final class MQTTClient {
    /// What `pump` saw.
    package enum Happening: Equatable, Sendable {
        /// The broker accepted the connection (CONNACK 0): subscribe and publish now.
        case connected
        /// The connection ended or could not be made; `error` says why.
        case lost(MQTTError)
        /// A message on a topic subscribed to.
        case message(topic: String, payload: [UInt8], retained: Bool)
    }

    /// How to connect.
    package struct Options: Sendable {
        package var clientID: String
        package var username: String?
        package var password: String?
        /// A PEM file of the CA that signed the broker's certificate: TLS, the broker verified.
        package var caFile: String?
        /// The last will: published by the broker for us when the connection is lost.
        package var will: (topic: String, payload: String)?
        /// Seconds between keep-alive pings.
        package var keepAlive = 30

        package init(clientID: String, username: String? = nil, password: String? = nil, caFile: String? = nil) {
            self.clientID = clientID
            self.username = username
            self.password = password
            self.caFile = caFile
        }
    }

    /// Collects what libmosquitto's callbacks say during a call, for `pump` to return.
    private final class Inbox {
        var happenings: [Happening] = []
        /// Whether the broker has accepted this connection (CONNACK): until then a TLS failure
        /// can be the handshake's, which no retry mends.
        var accepted = false
    }

    /// libmosquitto opened (on first use: it is not linked) and initialised once, or why not.
    private static let initialised: Result<Void, MQTTError> = {
        if let failure = cmosquitto_load() { return .failure(.rejected("libmosquitto cannot be loaded: \(String(cString: failure))")) }
        return cmosquitto_mosquitto_lib_init()() == MOSQ_ERR_SUCCESS.rawValue ? .success(()) : .failure(.rejected("libmosquitto could not be initialised"))
    }()

    private let handle: OpaquePointer
    private let inbox = Inbox()
    package let options: Options

    /// A client, not yet connected.
    /// - Throws: `MQTTError.rejected` when libmosquitto cannot be loaded, or set up with these
    ///   options (a CA file it cannot read, a will topic it does not take).
    package init(_ options: Options) throws(MQTTError) {
        try Self.initialised.get()
        self.options = options
        guard let handle = cmosquitto_mosquitto_new()(options.clientID, true, Unmanaged.passUnretained(inbox).toOpaque()) else {
            throw .rejected("libmosquitto could not make a client (out of memory)")
        }
        self.handle = handle
        cmosquitto_mosquitto_connect_callback_set()(handle) { _, context, code in
            let inbox = Unmanaged<Inbox>.fromOpaque(context!).takeUnretainedValue()
            inbox.accepted = code == 0
            inbox.happenings.append(
                code == 0 ? .connected : .lost(.refused(code: Int(code), reason: MQTTClient.connackReason(code))))
        }
        cmosquitto_mosquitto_disconnect_callback_set()(handle) { _, context, code in
            let error = errno
            let inbox = Unmanaged<Inbox>.fromOpaque(context!).takeUnretainedValue()
            defer { inbox.accepted = false }
            guard code != 0 else { return }  // 0: we asked for it
            // Classified as the loop's own code is: a certificate the CA does not vouch for ends
            // the connection here as often as in the loop's result, and is final, not "lost".
            inbox.happenings.append(.lost(MQTTClient.failure(code, errno: error, connecting: false, handshaking: !inbox.accepted)))
        }
        cmosquitto_mosquitto_message_callback_set()(handle) { _, context, message in
            guard let message = message?.pointee, let topic = message.topic else { return }
            let inbox = Unmanaged<Inbox>.fromOpaque(context!).takeUnretainedValue()
            let payload: [UInt8] =
                if let bytes = message.payload, message.payloadlen > 0 {
                    Array(UnsafeRawBufferPointer(start: bytes, count: Int(message.payloadlen)))
                } else { [] }
            inbox.happenings.append(.message(topic: String(cString: topic), payload: payload, retained: message.retain))
        }
        try check(cmosquitto_mosquitto_int_option()(handle, MOSQ_OPT_PROTOCOL_VERSION, Int32(MQTT_PROTOCOL_V311)), "the MQTT version")
        if options.username != nil || options.password != nil {
            try check(cmosquitto_mosquitto_username_pw_set()(handle, options.username, options.password), "the user name")
        }
        if let caFile = options.caFile {
            try check(cmosquitto_mosquitto_tls_set()(handle, caFile, nil, nil, nil, nil), "the TLS CA file \(caFile)")
        }
        if let will = options.will {
            let bytes = Array(will.payload.utf8)
            try check(cmosquitto_mosquitto_will_set()(handle, will.topic, Int32(bytes.count), bytes, 1, true), "the last will's topic \(will.topic)")
        }
    }

    deinit { cmosquitto_mosquitto_destroy()(handle) }

    /// Starts connecting to `host`:`port`; the outcome comes from `pump` (`.connected`, or `.lost`).
    /// - Throws: `MQTTError.unreachable` when it fails at once (no such host, refused on loopback).
    package func connect(host: String, port: Int) throws(MQTTError) {
        let code = cmosquitto_mosquitto_connect_async()(handle, host, Int32(port), Int32(options.keepAlive))
        let error = errno
        guard code == MOSQ_ERR_SUCCESS.rawValue else { throw Self.failure(code, errno: error, connecting: true) }
    }

    /// Connects again after a loss, with the same host and options.
    /// - Throws: as `connect`.
    package func reconnect() throws(MQTTError) {
        let code = cmosquitto_mosquitto_reconnect_async()(handle)
        let error = errno
        guard code == MOSQ_ERR_SUCCESS.rawValue else { throw Self.failure(code, errno: error, connecting: true) }
    }

    /// Reads and writes the connection for up to `timeout` seconds and returns what happened.
    /// A failure of the connection is a `.lost` happening, never a throw.
    package func pump(timeout: Double) -> [Happening] {
        let code = cmosquitto_mosquitto_loop()(handle, Int32(max(0, timeout) * 1000), 1)
        let error = errno
        var happened = inbox.happenings
        inbox.happenings.removeAll()
        if code != MOSQ_ERR_SUCCESS.rawValue, !happened.contains(where: { if case .lost = $0 { true } else { false } }) {
            happened.append(.lost(Self.failure(code, errno: error, connecting: false, handshaking: !inbox.accepted)))
        }
        return happened
    }

    /// Queues `payload` for `topic` (sent by the next `pump`s).
    /// - Throws: `MQTTError.lost` when not connected; `.rejected` for a topic the protocol refuses.
    package func publish(_ topic: String, _ payload: [UInt8], qos: Int, retain: Bool) throws(MQTTError) {
        let code = cmosquitto_mosquitto_publish()(handle, nil, topic, Int32(payload.count), payload, Int32(qos), retain)
        let error = errno
        guard code == MOSQ_ERR_SUCCESS.rawValue else { throw Self.failure(code, errno: error, connecting: false) }
    }

    /// Subscribes to `filter`.
    /// - Throws: as `publish`.
    package func subscribe(_ filter: String, qos: Int) throws(MQTTError) {
        let code = cmosquitto_mosquitto_subscribe()(handle, nil, filter, Int32(qos))
        let error = errno
        guard code == MOSQ_ERR_SUCCESS.rawValue else { throw Self.failure(code, errno: error, connecting: false) }
    }

    /// Says goodbye to the broker (no last will is published) and sends it.
    package func disconnect() {
        cmosquitto_mosquitto_disconnect()(handle)
        _ = cmosquitto_mosquitto_loop()(handle, 100, 1)
    }

    /// CONNACK's refusal in words ("not authorised"), without libmosquitto's prefix and full stop.
    /// libmosquitto's text for a code (never NULL in practice; "unknown" if it were).
    private static func words(_ text: UnsafePointer<CChar>?) -> String { text.map { String(cString: $0) } ?? "unknown" }

    private static func connackReason(_ code: Int32) -> String {
        var text = MQTTClient.words(cmosquitto_mosquitto_connack_string()(code))
        for prefix in ["Connection Refused: ", "Connection refused: "] where text.hasPrefix(prefix) { text = String(text.dropFirst(prefix.count)) }
        return text.hasSuffix(".") ? String(text.dropLast()) : text
    }

    private func check(_ code: Int32, _ what: String) throws(MQTTError) {
        guard code == MOSQ_ERR_SUCCESS.rawValue else { throw .rejected("\(what): \(MQTTClient.words(cmosquitto_mosquitto_strerror()(code)))") }
    }

    /// A libmosquitto return code (and the errno captured with it) as an `MQTTError`.
    ///
    /// A TLS handshake that fails does not always say "TLS": when the handshake finishes inside a
    /// read (a busy machine, an asynchronous connect), libmosquitto turns OpenSSL's error into
    /// `MOSQ_ERR_ERRNO` with `EPROTO`. Before the broker has accepted the connection
    /// (`handshaking`), that is the handshake's failure, final; after, it is a connection lost.
    private static func failure(_ code: Int32, errno error: Int32, connecting: Bool, handshaking: Bool = false) -> MQTTError {
        let said: String =
            if code == MOSQ_ERR_ERRNO.rawValue { String(cString: strerror(error)) } else { MQTTClient.words(cmosquitto_mosquitto_strerror()(code)) }
        let text = said.hasSuffix(".") ? String(said.dropLast()) : said
        switch code {
        case MOSQ_ERR_TLS.rawValue, MOSQ_ERR_TLS_HANDSHAKE.rawValue: return .tls(text)
        case MOSQ_ERR_ERRNO.rawValue where error == EPROTO && handshaking: return .tls(text)
        case MOSQ_ERR_INVAL.rawValue, MOSQ_ERR_PAYLOAD_SIZE.rawValue, MOSQ_ERR_MALFORMED_UTF8.rawValue, MOSQ_ERR_OVERSIZE_PACKET.rawValue:
            return .rejected(text)
        case MOSQ_ERR_NO_CONN.rawValue where !connecting: return .lost("not connected")
        default: return connecting ? .unreachable(text) : .lost(text)
        }
    }
}
