import Foundation

/// A recording in the library, with everything planning needs measured once at import:
/// lengths are in samples at the library's rate, so no clip is decoded to plan a ringtone.
public struct LibraryClip: Hashable, Sendable, Identifiable {
    public var id: UUID
    public var title: String
    /// The stored lossless copy's file name inside `clips/`.
    public var fileName: String
    /// All samples of the recording, untrimmed.
    public var frames: Int
    /// Where the audio starts once leading silence is trimmed.
    public var trimmedStart: Int
    /// Samples left once leading and trailing silence are trimmed.
    public var trimmedLength: Int
    public var sampleRate: Int
    /// SHA-256 of the stored copy's bytes: the clip's audio identity.
    public var contentHash: String
    /// The text a spoken stand-in was made from (`clip say`); nil for a person's recording. New
    /// audio (`clip replace`, `record --replace`) makes it a recording again.
    public var spokenText: String?

    public init(id: UUID, title: String, fileName: String, frames: Int, trimmedStart: Int, trimmedLength: Int,
                sampleRate: Int, contentHash: String, spokenText: String? = nil) {
        self.id = id
        self.title = title
        self.fileName = fileName
        self.frames = frames
        self.trimmedStart = trimmedStart
        self.trimmedLength = trimmedLength
        self.sampleRate = sampleRate
        self.contentHash = contentHash
        self.spokenText = spokenText
    }

    /// True for a spoken stand-in, not yet the person's own voice.
    public var isGenerated: Bool { spokenText != nil }

    public var idString: String { id.uuidString.lowercased() }
    public var duration: Double { Double(frames) / Double(sampleRate) }

    /// The range of the recording a ringtone plays from, with or without silence trimming.
    public func range(trimSilence: Bool) -> (start: Int, length: Int) {
        trimSilence ? (trimmedStart, trimmedLength) : (0, frames)
    }
}
