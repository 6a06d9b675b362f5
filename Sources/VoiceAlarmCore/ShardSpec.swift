import Foundation

/// One shard of a batch split `count` ways: which shard this process builds (1-based, as
/// Playwright's `--shard`), and where that came from.
///
/// The index comes from `--shard K/N`, or else from the environment a job engine sets:
/// `JOB_COMPLETION_INDEX` (a Kubernetes Indexed Job, 0-based), `SLURM_ARRAY_TASK_ID` with
/// `SLURM_ARRAY_TASK_MIN`, `_STEP` and `_COUNT` (a Slurm job array), `AWS_BATCH_JOB_ARRAY_INDEX`
/// (an AWS Batch array job, 0-based). The count comes from `--shards N`, or from the engine where
/// it tells (Slurm's `SLURM_ARRAY_TASK_COUNT`). Resolving is a pure function of its inputs.
///
/// A ringtone belongs to the shard that its key's SHA-256 digest names (`shard(ofDigest:)`), so
/// every shard agrees without talking.
///
/// ```swift
/// let shard = try ShardSpec.resolve(option: "2/4", count: nil, environment: [:])
/// shard.owns(digest: "9f86d081884c7d65…")   // true for one shard of the four
/// ```
package struct ShardSpec: Equatable, Sendable {
    /// Where the shard index came from.
    package enum Source: String, Equatable, Sendable, Encodable {
        /// No sharding: the whole manifest.
        case none
        case option = "--shard"
        case kubernetes = "JOB_COMPLETION_INDEX"
        case slurm = "SLURM_ARRAY_TASK_ID"
        case awsBatch = "AWS_BATCH_JOB_ARRAY_INDEX"
    }

    /// 1-based: 1 ... count.
    package let index: Int
    package let count: Int
    package let source: Source

    /// The whole manifest, in one process.
    package static let whole = ShardSpec(index: 1, count: 1, source: .none)

    /// The most shards a batch may be split into.
    package static let largestCount = 100_000

    /// A shard known to be valid (a bug otherwise; user input goes through `parse` or `resolve`).
    package init(index: Int, count: Int, source: Source) {
        precondition(count >= 1 && count <= Self.largestCount && (1...count).contains(index), "shard \(index)/\(count)")
        self.index = index
        self.count = count
        self.source = source
    }

    /// `K/N` as on the command line.
    package var text: String { "\(index)/\(count)" }

    /// A name for files of this shard: `shard-K-of-N`.
    package var fileStem: String { "shard-\(index)-of-\(count)" }

    /// Whether this is one shard of several.
    package var isSharded: Bool { count > 1 }

    /// Parses `K/N` (1 ≤ K ≤ N).
    /// - Throws: `ShardError` naming what is wrong.
    package static func parse(_ text: String) throws(ShardError) -> ShardSpec {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw ShardError("--shard: '\(text)' is not K/N (shard K of N, 1-based, e.g. 2/4)")
        }
        guard count >= 1, count <= largestCount else {
            throw ShardError("--shard: '\(text)': the count must be 1 to \(largestCount)")
        }
        guard (1...count).contains(index) else {
            throw ShardError("--shard: '\(text)': the shard must be 1 to \(count) (1-based)")
        }
        return ShardSpec(index: index, count: count, source: .option)
    }

    /// The shard this process builds.
    /// - Parameters:
    ///   - option: `--shard`'s value, if given.
    ///   - count: `--shards`' value, if given.
    ///   - environment: the process environment.
    /// - Throws: `ShardError` for a bad value, an engine index out of range or not a number, an
    ///   index without a count, or an option that contradicts the engine's index.
    package static func resolve(option: String?, count countText: String?, environment: [String: String]) throws(ShardError) -> ShardSpec {
        var count: Int?
        if let countText {
            guard let parsed = Int(countText), parsed >= 1, parsed <= largestCount else {
                throw ShardError("--shards: '\(countText)' is not a shard count (1 to \(largestCount))")
            }
            count = parsed
        }
        let spec = try option.map { text throws(ShardError) in try parse(text) }
        let engine = try engineShard(environment, count: count ?? spec?.count)
        if let option, let spec {
            if let count, count != spec.count {
                throw ShardError("--shards \(count) contradicts --shard \(option)")
            }
            if let engine, engine.index != spec.index || engine.count != spec.count {
                throw ShardError("--shard \(option) contradicts \(engine.source.rawValue) (shard \(engine.text))")
            }
            return spec
        }
        if let engine { return engine }
        if let count, count > 1 {
            throw ShardError(
                "--shards \(count) needs a shard index: --shard K/\(count), or run under an engine that sets one (JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID, AWS_BATCH_JOB_ARRAY_INDEX)"
            )
        }
        return .whole
    }

    /// The engine's shard, when its variables are set (the first of Kubernetes, Slurm, AWS Batch).
    private static func engineShard(_ environment: [String: String], count: Int?) throws(ShardError) -> ShardSpec? {
        func value(_ name: String) -> String? {
            guard let text = environment[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            return text
        }
        func number(_ name: String) throws(ShardError) -> Int? {
            guard let text = value(name) else { return nil }
            guard let number = Int(text), number >= 0 else { throw ShardError("\(name)='\(text)' is not a shard index (a whole number from 0)") }
            return number
        }
        func shard(_ zeroBased: Int, count: Int?, _ source: Source, countHint: String) throws(ShardError) -> ShardSpec {
            guard let count else { throw ShardError("\(source.rawValue) is set but the shard count is not: give --shards N (\(countHint))") }
            guard (1...largestCount).contains(count) else {
                throw ShardError("SLURM_ARRAY_TASK_COUNT=\(count) is not a shard count (1 to \(largestCount))")
            }
            guard zeroBased < count else {
                throw ShardError("\(source.rawValue)=\(environment[source.rawValue] ?? "") is out of range for \(count) shards")
            }
            return ShardSpec(index: zeroBased + 1, count: count, source: source)
        }
        if let index = try number(Source.kubernetes.rawValue) {
            return try shard(index, count: count, .kubernetes, countHint: "the Job's completions")
        }
        if let id = try number(Source.slurm.rawValue) {
            let minimum = try number("SLURM_ARRAY_TASK_MIN") ?? 0
            let step = try number("SLURM_ARRAY_TASK_STEP") ?? 1
            var total = count
            if let given = try number("SLURM_ARRAY_TASK_COUNT") {
                if let count, count != given { throw ShardError("--shards \(count) contradicts SLURM_ARRAY_TASK_COUNT=\(given)") }
                total = given
            }
            guard step >= 1, id >= minimum, (id - minimum) % step == 0 else {
                throw ShardError("SLURM_ARRAY_TASK_ID=\(id) is not in the array \(minimum)-…:\(step) (use --array=MIN-MAX[:STEP])")
            }
            return try shard((id - minimum) / step, count: total, .slurm, countHint: "the array's size")
        }
        if let index = try number(Source.awsBatch.rawValue) {
            return try shard(index, count: count, .awsBatch, countHint: "the array job's size")
        }
        return nil
    }

    /// The 1-based shard, of `count`, that a hex SHA-256 `digest` belongs to: its first 64 bits
    /// modulo `count`, plus one.
    package static func shard(ofDigest digest: String, count: Int) -> Int {
        precondition(count >= 1 && digest.count >= 16, "a hex SHA-256 digest and a count")
        guard let prefix = UInt64(digest.prefix(16), radix: 16) else { preconditionFailure("not a hex digest: \(digest)") }
        return Int(prefix % UInt64(count)) + 1
    }

    /// Whether the ringtone whose key hashes to `digest` is this shard's.
    package func owns(digest: String) -> Bool {
        Self.shard(ofDigest: digest, count: count) == index
    }
}

/// A shard that cannot be resolved: a bad `--shard`/`--shards` or engine variable (a usage error).
package struct ShardError: Error, Equatable, CustomStringConvertible {
    package var reason: String
    /// The values it quotes come from the command line and the environment: shown escaped, on one line.
    package init(_ reason: String) { self.reason = PrintableText.escaped(reason) }
    package var description: String { reason }
}
