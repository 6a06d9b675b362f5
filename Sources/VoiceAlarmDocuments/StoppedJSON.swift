import VoiceAlarm

/// What a stop ended: `{"stopped": [ids], "snoozesCancelled": [alarm ids], "warnings": [text]}`
/// (a snooze that could not be cancelled rings again: said, never hidden).
package struct StoppedJSON: Encodable {
    package var stopped: [String]
    package var snoozesCancelled: [String]
    package var warnings: [String]

    package init(_ result: RingStopper.Stopped) {
        stopped = result.rings.map { $0.uuidString.lowercased() }
        snoozesCancelled = result.snoozesCancelled.map { $0.uuidString.lowercased() }
        warnings = result.snoozeProblem.map { ["pending snoozes could not be cancelled: \($0)"] } ?? []
    }
}
