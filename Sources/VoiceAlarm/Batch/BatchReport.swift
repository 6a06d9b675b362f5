import VoiceAlarmCore

/// What a batch run did, for a pipeline to act on (`--json`):
/// `{"built": [id], "skipped": [id], "failed": [{"id", "error"}], "warnings": [{"id", "warning"}],
/// "ringtones": [{"id", "output", "duration", "clips": [{"input", "used", "reason"}]}],
/// "shard": {"index", "count", "source"}, "seconds"}`.
///
/// Lists follow the manifest's order and hold this shard's ringtones only: the union of every
/// shard's report is the manifest. `ringtones` describes every ringtone that is in place, built
/// now or skipped as unchanged; `warnings` holds the current warning of each of them.
package struct BatchReport: Encodable, Sendable {
    /// A ringtone that could not be built, and why.
    package struct Failure: Encodable, Sendable, Equatable {
        package var id: String
        package var error: String
    }

    /// A ringtone that was built but may not be what its author expects (`RingtoneWarning`).
    package struct Warning: Encodable, Sendable, Equatable {
        package var id: String
        package var warning: String
    }

    /// One clip of a ringtone: whether it plays, and why (part of) it was left out.
    package struct ClipUse: Codable, Sendable, Equatable {
        package var input: String
        package var used: Bool
        package var reason: String?

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(input, forKey: .input)
            try container.encode(used, forKey: .used)
            try container.encode(reason, forKey: .reason)  // null when it plays whole
        }
    }

    /// A ringtone in place.
    package struct Ringtone: Encodable, Sendable, Equatable {
        package var id: String
        /// The file's absolute path.
        package var output: String
        /// Decoded seconds; null for a ringtone recorded by an earlier version that did not keep it.
        package var duration: Double?
        package var clips: [ClipUse]
        /// Set when the ringtone was left under its loudness target; null when on target (or
        /// recorded by an earlier version).
        package var shortfall: LoudnessShortfall?

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(output, forKey: .output)
            try container.encode(duration, forKey: .duration)
            try container.encode(clips, forKey: .clips)
            try container.encode(shortfall, forKey: .shortfall)
        }
        private enum CodingKeys: String, CodingKey { case id, output, duration, clips, shortfall }
    }

    /// Which shard ran, and where its index came from.
    package struct Shard: Encodable, Sendable, Equatable {
        package var index: Int
        package var count: Int
        package var source: ShardSpec.Source
    }

    package var built: [String] = []
    package var skipped: [String] = []
    package var failed: [Failure] = []
    package var warnings: [Warning] = []
    package var ringtones: [Ringtone] = []
    package var shard: Shard
    package var seconds = 0.0

    init(shard: ShardSpec) {
        self.shard = Shard(index: shard.index, count: shard.count, source: shard.source)
    }
}
