import Foundation

/// A recording in the library, with everything planning needs measured once at import:
/// lengths are in samples at the library's rate, so no clip is decoded to plan a ringtone.
public struct LibraryClip: Hashable, Sendable, Identifiable {
    /// The clip's own id: what playlists and the manifesto name it by.
    public var id: UUID
    /// How it is shown (no control characters).
    public var title: String
    /// The stored lossless copy's file name inside `clips/`.
    package var fileName: String
    /// All samples of the recording, untrimmed.
    package var frames: Int
    /// Where the audio starts once leading silence is trimmed.
    package var trimmedStart: Int
    /// Samples left once leading and trailing silence are trimmed.
    package var trimmedLength: Int
    package var sampleRate: Int
    /// SHA-256 of the stored copy's bytes: the clip's audio identity.
    package var contentHash: String
    /// The text a spoken stand-in was made from (`clip say`); nil for a person's recording. New
    /// audio (`clip replace`, `record --replace`) makes it a recording again.
    package var spokenText: String?

    package init(
        id: UUID, title: String, fileName: String, frames: Int, trimmedStart: Int, trimmedLength: Int,
        sampleRate: Int, contentHash: String, spokenText: String? = nil
    ) {
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
    package var isGenerated: Bool { spokenText != nil }

    package var idString: String { id.uuidString.lowercased() }
    /// The whole recording's length, in seconds.
    public var duration: Double { Double(frames) / Double(sampleRate) }

    /// The range of the recording a ringtone plays from, with or without silence trimming.
    package func range(trimSilence: Bool) -> (start: Int, length: Int) {
        trimSilence ? (trimmedStart, trimmedLength) : (0, frames)
    }
}
