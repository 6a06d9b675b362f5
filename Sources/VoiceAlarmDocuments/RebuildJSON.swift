import VoiceAlarm

/// What a change did to alarms, under `--json`:
/// `{"rebuilt": [ids], "defaultTone": [{"id", "reason"}], "deferred": [{"id", "reason"}],
/// "shortfalls": [{"id", "shortfall"}]}`.
package struct RebuildJSON: Encodable {
    package struct Entry: Encodable { package var id: String; package var reason: String }
    package var rebuilt: [String]
    package var defaultTone: [Entry]
    package var deferred: [Entry]
    package var shortfalls: [BatchBuilder.Outcome.Shortfall]

    package init(_ summary: RebuildSummary) {
        rebuilt = summary.rebuilt.map { $0.uuidString.lowercased() }
        defaultTone = summary.onDefault.map { Entry(id: $0.0.uuidString.lowercased(), reason: "\($0.1)") }
        deferred = summary.deferred.map { Entry(id: $0.0.uuidString.lowercased(), reason: "\($0.1)") }
        shortfalls = summary.shortfalls.map { .init(id: $0.0.uuidString.lowercased(), shortfall: $0.1) }
    }
}
