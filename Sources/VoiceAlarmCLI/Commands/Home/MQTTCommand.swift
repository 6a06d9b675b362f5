import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmFiles
import VoiceAlarmHome

/// `voicealarm mqtt`: the Home Assistant bridge, in the foreground until SIGTERM or Ctrl-C.
enum MQTTCommand: Command {
    static let spec = CommandSpec(
        name: "mqtt", summary: "Let Home Assistant follow and control the alarms over MQTT (runs in the foreground)", arguments: "",
        minimumArguments: 0, maximumArguments: 0,
        options: [broker, username, passwordFile, tlsCA, clientID, discoveryPrefix, topicBase, preAlarm, allowAnonymous],
        discussion: """
              Publishes every alarm to an MQTT broker in Home Assistant's discovery format (a device for
              this machine, one per alarm: switches, the next ring, its state, its time, buttons and an
              event entity), its events within a second (rang, stopped, snoozed, missed, skipped and
              pre_alarm some minutes before a ring), and does what Home Assistant asks through the same
              rules as the command line. Options given once are remembered in the data dir (mqtt.json),
              so 'voicealarm mqtt' alone, or its service ('voicealarm service install --mqtt'), needs
              none. The password is read from a file others may not read. A broker that lets anyone in
              is refused unless --allow-anonymous-broker. The daemon rings whether this runs or not;
              a broker that is down is tried again, said once a minute.
            """,
        examples: [
            "voicealarm mqtt --broker homeassistant.local:1883 --username voicealarm --password-file ~/.config/voicealarm-mqtt.pw",
            "voicealarm mqtt --broker mqtt.home:8883 --tls-ca /etc/ssl/home-ca.pem --username va --password-file pw --pre-alarm 20",
            "voicealarm mqtt",
        ])
    static let broker: Option<BrokerAddress?> = .reading(
        "broker", value: "HOST[:PORT]", help: "The MQTT broker (port 1883, or 8883 with --tls-ca)"
    ) { text in
        switch BrokerAddress.parse(text) {
        case .success(let address): return address
        case .failure(let refusal): throw OptionRefusal(refusal.description)
        }
    }
    static let username: Option<String?> = .text("username", value: "NAME", help: "The broker's user name for this bridge") { text in
        text.isEmpty || PrintableText.hasControlCharacters(text) || text.utf8.count > 200 ? "a name of printable characters" : nil
    }
    static let passwordFile: Option<String?> = .text(
        "password-file", value: "FILE", kind: .file, help: "A file whose first line is the password (not readable by others)")
    static let tlsCA: Option<String?> = .text("tls-ca", value: "FILE", kind: .file, help: "TLS: the CA (PEM) that signed the broker's certificate")
    static let clientID: Option<String?> = .text("client-id", value: "ID", help: "The MQTT client id (default: voicealarm-HOST)") { text in
        text.isEmpty || PrintableText.hasControlCharacters(text) || text.utf8.count > 64 ? "at most 64 printable bytes" : nil
    }
    static let discoveryPrefix: Option<String?> = .text(
        "discovery-prefix", value: "PREFIX", help: "Home Assistant's discovery prefix (default homeassistant)")
    static let topicBase: Option<String?> = .text("topic-base", value: "TOPIC", help: "Where states and commands go (default voicealarm/HOST)")
    static let preAlarm: Option<Int?> = .wholeNumber(
        "pre-alarm", value: "MINUTES", in: PreAlarmWatch.minutes, of: "minutes",
        help: "The pre_alarm event comes this long before a ring, {range} (default 10)")
    static let allowAnonymous = Flag(
        "allow-anonymous-broker", help: "Connect to a broker that lets anyone in (anyone could then stop your alarms)")

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let location = try context.location()
        let remembered = try HomeBridgeSettings.remembered(in: location.dataDirectory)
        guard var settings = try parsed[Self.broker].map({ HomeBridgeSettings(host: $0.host, port: $0.port ?? 0) }) ?? remembered else {
            throw UsageError(HomeBridgeSettings.Refusal.noBroker.description, command: spec.name, input: Self.broker.spec.dashed)
        }
        if let remembered, parsed.given(Self.broker) {
            // A new broker keeps the rest of what was remembered unless given again.
            let host = settings.host, port = settings.port
            settings = remembered
            settings.host = host
            settings.port = port
        }
        if let value = try parsed[Self.username] { settings.username = value }
        if let value = try parsed[Self.passwordFile] { settings.passwordFile = FileSystem.absolutePath(value) }
        if let value = try parsed[Self.tlsCA] { settings.tlsCA = FileSystem.absolutePath(value) }
        if let value = try parsed[Self.clientID] { settings.clientID = value }
        if let value = try parsed[Self.discoveryPrefix] { settings.discoveryPrefix = value }
        if let value = try parsed[Self.topicBase] { settings.topicBase = value }
        if let value = try parsed[Self.preAlarm] { settings.preAlarmMinutes = value }
        if parsed[Self.allowAnonymous] { settings.allowAnonymousBroker = true }
        if settings.port == 0 { settings.port = settings.tlsCA == nil ? 1883 : 8883 }

        let host = ProcessInfo.processInfo.hostName
        let topics: HomeTopics
        do { topics = try HomeTopics(host: host, base: settings.topicBase, discoveryPrefix: settings.discoveryPrefix) } catch {
            throw UsageError(error.description, command: spec.name, input: error.failureInput)
        }
        guard settings.username != nil || settings.allowAnonymousBroker else {
            throw UsageError(
                "no --username: a broker anyone may use without a password is anyone's remote control for your alarms; "
                    + "give --username and --password-file, or --allow-anonymous-broker", command: spec.name, input: Self.username.spec.dashed)
        }
        let password = try settings.password()
        if let ca = settings.tlsCA, FileSystem.kind(of: ca, followingLinks: true) != .regular {
            throw UsageError("\(Self.tlsCA.spec.dashed): \(ca) is not a file", command: spec.name, input: ca)
        }
        let service = try context.library()  // the data dir exists and is this account's before anything is kept in it

        let console = context.console, quiet = context.quiet
        let bridge = try HomeBridge(
            settings: settings, password: password, topics: topics, version: Version.current, location: location, open: context.library,
            now: context.now, log: { line in if !quiet || line.hasPrefix("warning") { console.note(line) } },
            firstConnected: {
                // Remembered once the broker took them: a mistyped broker or password is never kept.
                guard settings != remembered else { return }
                do { try settings.remember(in: service.dataDirectory) } catch {
                    console.note("warning: the settings could not be remembered (\(error)); give them again next time")
                }
            })
        context.present(
            BridgeJSON(
                dataDir: service.dataDirectory, broker: "\(settings.host):\(settings.port)", topicBase: topics.base,
                discoveryPrefix: topics.discoveryPrefix, preAlarmMinutes: settings.preAlarmMinutes)
        ) {}
        context.say(
            "Following the alarms of \(service.dataDirectory) for Home Assistant through the broker at \(settings.host):\(settings.port) (Ctrl-C stops).")
        let stop = StopFlag()
        InterruptHandler.onInterrupt { _ in stop.set() }
        try bridge.run(stopped: { stop.isSet })
        context.say("Stopped following the alarms.")
        return .success
    }

    /// `mqtt --json`, printed once it has started (it then runs until stopped):
    /// `{"dataDir", "broker", "topicBase", "discoveryPrefix", "preAlarmMinutes"}`.
    struct BridgeJSON: Encodable {
        var dataDir: String, broker: String, topicBase: String, discoveryPrefix: String, preAlarmMinutes: Int
    }
}
