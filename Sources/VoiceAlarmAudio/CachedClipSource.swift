import VoiceAlarmCore

/// A batch input read through the batch's `BatchClipCache`: decoded at most once per batch,
/// by the first ringtone that reaches it, and then shared by every ringtone that uses it.
package final class CachedClipSource: ClipSource {
    /// The input's path.
    package let path: String
    /// The SHA-256 of its bytes, which keys the cache.
    package let contentHash: String
    private let cache: BatchClipCache
    private var clip: CachedClip?

    /// The input at `path`, whose bytes hash to `contentHash`, to be read through `cache`.
    package init(path: String, contentHash: String, cache: BatchClipCache) {
        self.path = path
        self.contentHash = contentHash
        self.cache = cache
    }

    package var name: String { path }

    /// The cached extent; one the cache knows only to be longer than any cap is longer than `budget` too.
    package func measure(within budget: Int, trimSilence: Bool, sampleRate: Int) throws -> ClipExtent {
        precondition(sampleRate == cache.sampleRate, "a batch cache at \(cache.sampleRate) Hz asked for \(sampleRate) Hz")
        precondition(budget <= cache.budget, "a budget of \(budget) samples past the cache's \(cache.budget)")
        let clip = try cache.clip(path, hash: contentHash, trimSilence: trimSilence)
        self.clip = clip
        switch clip.extent {
        case .exact(let length): return .exact(length)
        case .longerThan: return .longerThan(budget)
        }
    }

    /// Reads the cached samples file a chunk at a time.
    package func read(_ count: Int, chunk: Int, into sink: (ArraySlice<Float>) throws -> Void) throws {
        guard let clip else { preconditionFailure("samples of \(path) asked before it was measured") }
        try BatchClipCache.read(clip, count: count, chunk: chunk, into: sink)
    }

    package var silenceTrimmed: Int { clip?.silenceTrimmed ?? 0 }
}
