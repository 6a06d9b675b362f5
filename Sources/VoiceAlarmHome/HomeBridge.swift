import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmMQTT

/// `voicealarm mqtt`: keeps Home Assistant in step with a library over MQTT, beside the daemon
/// and `serve`, and does what Home Assistant asks through the service.
///
/// One thread runs it all, a step at a time (`step`): pump the connection (commands in, messages
/// out), read the events the ring path appended to its journal (`AlarmEventJournal`) into a
/// bounded queue, read the library again when `ChangeSignals` moved and publish what differs from
/// what was published, announce rings coming within the pre-alarm lead, and hand the queue's
/// events to the broker while connected. Nothing of it is on the ring path: the daemon appends a
/// line and goes on, whether this runs, hangs or is gone.
///
/// A broker that is down or unreachable is tried again with a doubling wait (1 s to 60 s), said
/// once a minute; credentials or a certificate the broker refuses end the run (`run` throws).
package final class HomeBridge {
    /// How the bridge names things and when it speaks.
    package struct Configuration: Sendable {
        package var topics: HomeTopics
        package var preAlarmMinutes: Int
        package var version: String
        /// The broker lets anyone connect, and the person said that is fine (warned of).
        package var allowAnonymousBroker: Bool

        package init(topics: HomeTopics, preAlarmMinutes: Int, version: String, allowAnonymousBroker: Bool) {
            self.topics = topics
            self.preAlarmMinutes = preAlarmMinutes
            self.version = version
            self.allowAnonymousBroker = allowAnonymousBroker
        }
    }

    /// Why the bridge stopped on its own.
    package enum Failure: ClassifiedError, Equatable, Sendable, CustomStringConvertible {
        /// The broker refused us for good: credentials, TLS.
        case broker(MQTTError)
        /// The broker lets anyone in, so anyone could stop an alarm: refused unless allowed.
        case anonymousBroker(String)

        package var failureKind: FailureKind { .environment }
        package var failureInput: String? { nil }
        package var description: String {
            switch self {
            case .broker(let error): "\(error)"
            case .anonymousBroker(let broker):
                "the broker at \(broker) lets anyone connect without a password, so anyone on the network could stop or change your alarms: "
                    + "give it a password file (mosquitto_passwd), or --allow-anonymous-broker to connect anyway"
            }
        }
    }

    private enum Phase { case waiting(until: Date), connecting, connected }

    /// The longest wait between tries to reach the broker.
    package static let longestWait = 60.0
    /// How often the library is read again when nothing moved (the next ring's minute moves anyway).
    package static let rereadSeconds = 15.0

    let configuration: Configuration
    let location: LibraryLocation
    let link: any HomeLink
    /// Whether the broker accepts a connection with no credentials (nil: could not tell).
    let acceptsAnonymous: () -> Bool?
    let open: () throws -> AlarmService
    let now: @Sendable () -> Date
    let log: (String) -> Void
    let brokerName: String
    /// Called once, when the broker first accepts the bridge (the settings are then remembered).
    let firstConnected: () -> Void
    /// Waits between tries while the broker is away (a fake clock's tests wait for nothing).
    let pause: (TimeInterval) -> Void

    private let journal: AlarmEventJournal
    private let reader: HomeSnapshotReader
    private let runner: HomeCommandRunner
    private var phase = Phase.waiting(until: .distantPast)
    private var wait = 1.0
    private var saidUnreachable: Date?
    private var everConnected = false
    private var cursor: AlarmEventJournal.Cursor
    private var queue = HomeEventQueue()
    private var droppedSaid = 0
    private var watch: PreAlarmWatch
    private var snapshot: HomeSnapshot?
    /// What `snapshot` publishes, planned once per snapshot that differs from the one before.
    private var plan: [HomeMessage] = []
    private var planChanged = false
    private var signals: [String] = []
    private var readAt = Date.distantPast
    /// What each retained topic was last published with.
    private var published: [String: String] = [:]
    private var publishAll = false

    package init(
        _ configuration: Configuration, location: LibraryLocation, link: any HomeLink, brokerName: String,
        acceptsAnonymous: @escaping () -> Bool?, open: @escaping () throws -> AlarmService, now: @escaping @Sendable () -> Date,
        log: @escaping (String) -> Void, firstConnected: @escaping () -> Void = {},
        pause: @escaping (TimeInterval) -> Void = { Thread.sleep(forTimeInterval: $0) }
    ) {
        self.pause = pause
        self.firstConnected = firstConnected
        self.configuration = configuration
        self.location = location
        self.link = link
        self.brokerName = brokerName
        self.acceptsAnonymous = acceptsAnonymous
        self.open = open
        self.now = now
        self.log = log
        journal = AlarmEventJournal(dataDirectory: location.dataDirectory)
        cursor = journal.end()
        reader = HomeSnapshotReader(location: location)
        runner = HomeCommandRunner(location: location, open: open)
        watch = PreAlarmWatch(minutes: configuration.preAlarmMinutes)
    }

    /// Runs until `stopped()` says so (a signal), then says offline and disconnects.
    /// - Throws: `Failure` when the broker refuses for good.
    package func run(stopped: () -> Bool) throws(Failure) {
        while !stopped() { try step() }
        if case .connected = phase {
            try? link.publish(HomeMessage(configuration.topics.availability, "offline"))
            _ = link.pump(timeout: 0.1)
        }
        link.close()
    }

    /// One turn of the loop: at most a quarter of a second of waiting.
    package func step() throws(Failure) {
        switch phase {
        case .waiting(let until):
            if now() >= until { try connect() } else { pause(min(0.25, until.timeIntervalSince(now()))) }
        case .connecting, .connected:
            for happening in link.pump(timeout: 0.25) { try handle(happening) }
        }
        follow()
    }

    /// Starts a connection. A refusal that repeats until the person changes something (a CA
    /// that does not vouch for the broker's certificate) ends the bridge here as it does when
    /// the loop reports it: whether the handshake fails inside the connect call or in a later
    /// read is a matter of timing (a busy machine), and it was retried for ever in the first case.
    private func connect() throws(Failure) {
        do {
            try link.connect()
            phase = .connecting
        } catch {
            guard error.isTransient else { throw .broker(error) }
            lost(error)
        }
    }

    private func handle(_ happening: MQTTClient.Happening) throws(Failure) {
        switch happening {
        case .connected:
            if !everConnected {
                // Checked once, on the first connection: a broker anyone may use is anyone's remote control.
                if acceptsAnonymous() == true {
                    guard configuration.allowAnonymousBroker else { throw .anonymousBroker(brokerName) }
                    log("warning: the broker at \(brokerName) lets anyone connect; connecting anyway (--allow-anonymous-broker)")
                }
                firstConnected()
            }
            everConnected = true
            phase = .connected
            wait = 1
            saidUnreachable = nil
            log("connected to the broker at \(brokerName); Home Assistant finds the alarms under \(configuration.topics.discoveryPrefix)/")
            do {
                for filter in configuration.topics.commandFilters + [configuration.topics.homeAssistantStatus] { try link.subscribe(filter) }
            } catch {
                lost(error)
                return
            }
            publishAll = true
        case .lost(let error):
            guard error.isTransient else { throw .broker(error) }
            lost(error)
        case .message(let topic, let payload, _):
            if topic == configuration.topics.homeAssistantStatus {
                // Home Assistant's birth: it (re)started and reads discovery again; state follows.
                if payload == Array("online".utf8) { publishAll = true }
                return
            }
            switch HomeCommand.parse(topic: topic, payload: payload, topics: configuration.topics) {
            case .failure(let refusal): log("ignored a message: \(refusal)")
            case .success(let command):
                let outcome = runner.run(command)
                log("Home Assistant: \(outcome.sentence)")
                send(HomeMessage(configuration.topics.machine("last_command"), String(outcome.sentence.prefix(250))))
                reader.forget()
                signals = []  // read the library again now
            }
        }
    }

    /// The connection failed or was lost: try again after a doubling wait, said once a minute.
    private func lost(_ error: MQTTError) {
        let instant = now()
        if case .connected = phase {
            log("\(error); trying again until the broker at \(brokerName) answers (events wait, up to \(queue.capacity))")
            saidUnreachable = instant
        } else if saidUnreachable.map({ instant.timeIntervalSince($0) >= 60 }) ?? true {
            saidUnreachable = instant
            log("\(error); trying again (every \(Int(Self.longestWait)) s at most) until it answers")
        }
        phase = .waiting(until: instant.addingTimeInterval(wait))
        wait = min(Self.longestWait, wait * 2)
    }

    /// Events from the journal, the library's state, pre-alarms; handed over while connected.
    private func follow() {
        let read = journal.read(after: cursor)
        cursor = read.cursor
        for event in read.events { enqueue(event) }
        let instant = now()
        let moved = ChangeSignals.read(dataDirectory: location.dataDirectory, now: instant)
        if moved != signals || instant.timeIntervalSince(readAt) >= Self.rereadSeconds || instant < readAt {
            do {
                let read = try reader.read(try open())
                if read != snapshot {
                    snapshot = read
                    plan = HomeDiscovery.plan(read, topics: configuration.topics, version: configuration.version)
                    planChanged = true
                }
                signals = moved
                readAt = instant
            } catch {
                if signals != moved { log("the library could not be read: \(error)") }
                signals = moved
                readAt = instant
            }
        }
        if let snapshot {
            let rings = snapshot.alarms.compactMap { entry in entry.next.map { (alarm: entry.id, at: $0) } }
            for event in watch.due(at: instant, rings: rings) { enqueue(event) }
        }
        guard case .connected = phase else { return }
        if publishAll || planChanged {
            planChanged = false
            publish(plan)
        }
        while let event = queue.first {
            guard send(HomeDiscovery.event(event, topics: configuration.topics, timeZone: snapshot?.timeZone ?? .current)) else { break }
            queue.removeFirst()
        }
    }

    private func enqueue(_ event: AlarmEvent) {
        queue.append(event)
        if queue.dropped > droppedSaid {
            droppedSaid = queue.dropped
            if droppedSaid == 1 || droppedSaid % 100 == 0 {
                log("the broker has been away for \(queue.capacity) events: the oldest are dropped (\(droppedSaid) so far)")
            }
        }
    }

    /// Publishes what differs from what was published (everything after a (re)connection or
    /// Home Assistant's birth), and clears what is no longer planned: a removed alarm's configs
    /// and states (empty and retained), so its device goes.
    private func publish(_ plan: [HomeMessage]) {
        let all = publishAll
        publishAll = false
        let planned = Set(plan.map(\.topic))
        for message in plan where all || published[message.topic] != message.payload {
            if send(message) { published[message.topic] = message.payload } else { publishAll = true }
        }
        for topic in published.keys.sorted() where !planned.contains(topic) && topic != configuration.topics.machine("last_command") {
            if send(HomeMessage(topic, "")) { published[topic] = nil }
        }
    }

    @discardableResult
    private func send(_ message: HomeMessage) -> Bool {
        do {
            try link.publish(message)
            return true
        } catch {
            if !error.isTransient { log("not published to \(message.topic): \(error)") }
            return false
        }
    }
}
