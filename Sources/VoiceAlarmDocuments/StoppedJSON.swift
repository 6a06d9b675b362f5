/// What a stop ended: `{"stopped": [ids], "snoozesCancelled": [alarm ids]}`.
package struct StoppedJSON: Encodable {
    package var stopped: [String]
    package var snoozesCancelled: [String]
    package init(stopped: [String], snoozesCancelled: [String]) {
        self.stopped = stopped
        self.snoozesCancelled = snoozesCancelled
    }
}
