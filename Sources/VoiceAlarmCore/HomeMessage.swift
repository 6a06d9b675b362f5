/// One MQTT message the bridge publishes: a plan's line, published as a separate step.
package struct HomeMessage: Equatable, Sendable {
    package var topic: String
    /// UTF-8 text (JSON for configs and events); empty to clear a retained topic.
    package var payload: String
    /// Retained: configs and states, which a Home Assistant that starts later must find.
    package var retain: Bool
    /// 1 for events (delivered at least once), 0 for retained state.
    package var qos: Int

    package init(_ topic: String, _ payload: String, retain: Bool = true, qos: Int = 0) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
        self.qos = qos
    }
}
