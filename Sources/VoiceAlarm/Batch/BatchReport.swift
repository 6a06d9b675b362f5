import VoiceAlarmCore

/// What a batch run did, for a pipeline to act on (`--json`):
/// `{"built": [id], "skipped": [id], "failed": [{"id", "error"}], "warnings": [{"id", "warning"}],
/// "ringtones": [{"id", "output", "duration", "clips": [{"input", "used", "reason"}]}],
/// "shard": {"index", "count", "source"}, "seconds"}`.
///
/// Lists follow the manifest's order and hold this shard's ringtones only: the union of every
/// shard's report is the manifest. `ringtones` describes every ringtone that is in place, built
/// now or skipped as unchanged; `warnings` holds the current warning of each of them.
public struct BatchReport: Encodable, Sendable {
    /// A ringtone that could not be built, and why.
    public struct Failure: Encodable, Sendable, Equatable {
        public var id: String
        public var error: String
    }

    /// A ringtone that was built but may not be what its author expects (`RingtoneWarning`).
    public struct Warning: Encodable, Sendable, Equatable {
        public var id: String
        public var warning: String
    }

    /// One clip of a ringtone: whether it plays, and why (part of) it was left out.
    public struct ClipUse: Codable, Sendable, Equatable {
        public var input: String
        public var used: Bool
        public var reason: String?

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(input, forKey: .input)
            try container.encode(used, forKey: .used)
            try container.encode(reason, forKey: .reason)   // null when it plays whole
        }
    }

    /// A ringtone in place.
    public struct Ringtone: Encodable, Sendable, Equatable {
        public var id: String
        /// The file's absolute path.
        public var output: String
        /// Decoded seconds; null for a ringtone recorded by an earlier version that did not keep it.
        public var duration: Double?
        public var clips: [ClipUse]
        /// Set when the ringtone was left under its loudness target; null when on target (or
        /// recorded by an earlier version).
        public var shortfall: LoudnessShortfall?

        public func encode(to encoder: any Encoder) throws {
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
    public struct Shard: Encodable, Sendable, Equatable {
        public var index: Int
        public var count: Int
        public var source: ShardSpec.Source
    }

    public var built: [String] = []
    public var skipped: [String] = []
    public var failed: [Failure] = []
    public var warnings: [Warning] = []
    public var ringtones: [Ringtone] = []
    public var shard: Shard
    public var seconds = 0.0

    init(shard: ShardSpec) {
        self.shard = Shard(index: shard.index, count: shard.count, source: shard.source)
    }
}
