import VoiceAlarm

/// What a change did to alarms, under `--json`:
/// `{"rebuilt": [ids], "defaultTone": [{"id", "reason"}], "deferred": [{"id", "reason"}],
/// "shortfalls": [{"id", "shortfall"}]}`.
struct RebuildJSON: Encodable {
    struct Entry: Encodable { var id: String; var reason: String }
    var rebuilt: [String]
    var defaultTone: [Entry]
    var deferred: [Entry]
    var shortfalls: [BatchBuilder.Outcome.Shortfall]

    init(_ summary: RebuildSummary) {
        rebuilt = summary.rebuilt.map { $0.uuidString.lowercased() }
        defaultTone = summary.onDefault.map { Entry(id: $0.0.uuidString.lowercased(), reason: "\($0.1)") }
        deferred = summary.deferred.map { Entry(id: $0.0.uuidString.lowercased(), reason: "\($0.1)") }
        shortfalls = summary.shortfalls.map { .init(id: $0.0.uuidString.lowercased(), shortfall: $0.1) }
    }
}
