import Foundation
import TestSupport
import Testing
import VoiceAlarmAudio
import VoiceAlarmCore

/// The three ways a clip reaches the renderer.
enum SourceKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case decoded, stored, cached
    var testDescription: String { rawValue }
}

/// Audio files made by ffmpeg, each reachable as any kind of source: read from the file,
/// imported into a clips folder through `ClipArchive`, or cached through a `BatchClipCache`.
private final class Clips {
    let dir: TemporaryDirectory
    let clipsDirectory: String
    let cache: BatchClipCache
    private var imported: [String: LibraryClip] = [:]

    init(_ label: String) throws {
        dir = TemporaryDirectory(label)
        clipsDirectory = dir.file("clips")
        try FileManager.default.createDirectory(atPath: clipsDirectory, withIntermediateDirectories: true)
        cache = try BatchClipCache(directory: dir.file("cache"), sampleRate: RenderSettings.defaultSampleRate)
    }

    func source(_ path: String, as kind: SourceKind) throws -> any ClipSource {
        switch kind {
        case .decoded: DecodingClipSource(path: path)
        case .stored: StoredClipSource(clip: try library(path), clipsDirectory: clipsDirectory)
        case .cached: CachedClipSource(path: path, contentHash: try ContentHash.sha256(file: path), cache: cache)
        }
    }

    /// The file imported into the clips folder (once), titled with its path so reports compare equal.
    func library(_ path: String) throws -> LibraryClip {
        if let known = imported[path] { return known }
        let name = "clip\(imported.count)"
        let archived = try ClipArchive.store(path, into: clipsDirectory, name: name)
        let clip = LibraryClip(
            id: UUID(), title: path, fileName: "\(name).flac", frames: archived.frames,
            trimmedStart: archived.trimmedStart, trimmedLength: archived.trimmedLength,
            sampleRate: ClipArchive.sampleRate, contentHash: archived.contentHash)
        imported[path] = clip
        return clip
    }

    /// A clip whose file does not exist (for the stored kind: a library clip whose stored copy is gone).
    func missing(as kind: SourceKind) -> any ClipSource {
        let path = dir.file("missing-\(kind.rawValue).wav")
        switch kind {
        case .decoded: return DecodingClipSource(path: path)
        case .stored:
            let clip = LibraryClip(
                id: UUID(), title: "missing", fileName: "missing.flac", frames: 44_100, trimmedStart: 0,
                trimmedLength: 44_100, sampleRate: 44_100, contentHash: "missing")
            return StoredClipSource(clip: clip, clipsDirectory: clipsDirectory)
        case .cached: return CachedClipSource(path: path, contentHash: "missing", cache: cache)
        }
    }
}

/// Counts what the renderer asks of the source it wraps.
private final class Watched: ClipSource {
    let inner: any ClipSource
    private(set) var measured = 0
    /// Passes over the clip: one per pass of the render (loudness, gain matching, encoding).
    private(set) var passes = 0
    private(set) var largestChunk = 0

    init(_ inner: any ClipSource) { self.inner = inner }

    var name: String { inner.name }
    var silenceTrimmed: Int { inner.silenceTrimmed }

    func measure(within budget: Int, trimSilence: Bool, sampleRate: Int) throws -> ClipExtent {
        measured += 1
        return try inner.measure(within: budget, trimSilence: trimSilence, sampleRate: sampleRate)
    }

    func read(_ count: Int, chunk: Int, into sink: (ArraySlice<Float>) throws -> Void) throws {
        passes += 1
        try inner.read(count, chunk: chunk) { samples in
            largestChunk = max(largestChunk, samples.count)
            try sink(samples)
        }
    }
}

private func rounded(_ samples: Int) -> Double { (Double(samples) / 44_100 * 1000).rounded() / 1000 }

@Suite("Clip sources: decoded on demand, stored in the library, cached for a batch")
struct ClipSourceTests {
    struct SameCase: CustomTestStringConvertible, Sendable {
        var cap: Double
        var trimSilence: Bool
        var format: RingtoneFormat
        var used: [Bool]
        var testDescription: String { "cap \(cap), \(trimSilence ? "trimmed" : "untrimmed"), \(format.rawValue)" }
    }

    @Test(
        "Every kind of source gives the same plan, the same samples and the same ringtone",
        arguments: [
            SameCase(cap: 29, trimSilence: true, format: .wav, used: [true, true, true]),
            SameCase(cap: 5, trimSilence: true, format: .m4a, used: [true, false, false]),
            SameCase(cap: 5, trimSilence: false, format: .wav, used: [true, false, false]),
            SameCase(cap: 1.5, trimSilence: true, format: .m4a, used: [true, false, false]),
        ])
    func sameEverywhere(_ c: SameCase) async throws {
        let clips = try Clips("same")
        // 16-bit sources at the library's rate: its 24-bit FLAC copy holds their samples exactly.
        let a = clips.dir.file("a.wav"), b = clips.dir.file("b.flac"), d = clips.dir.file("d.wav")
        try await AudioFixtures.paddedTone(a, lead: 0.5, seconds: 2, tail: 0.5)
        try await AudioFixtures.tone(b, seconds: 3, frequency: 550)
        try await AudioFixtures.tone(d, seconds: 2, frequency: 660)
        let settings = RenderSettings(cap: c.cap, trimSilence: c.trimSilence, format: c.format)

        var reports: [RenderReport] = []
        var files: [Data] = []
        for kind in SourceKind.allCases {
            let out = clips.dir.file("\(kind.rawValue).\(c.format.fileExtension)")
            var report = try RingtoneRenderer().render(try [a, b, d].map { try clips.source($0, as: kind) }, settings: settings, to: out)
            report.output = "out"
            reports.append(report)
            files.append(try Data(contentsOf: URL(fileURLWithPath: out)))
        }
        #expect(reports[0].clips.map(\.used) == c.used)
        #expect(reports[1] == reports[0])
        #expect(reports[2] == reports[0])
        #expect(files[1] == files[0], "stored clips render the same bytes as decoded files")
        #expect(files[2] == files[0], "cached clips render the same bytes as decoded files")

        // The library plans the same composition from its stored lengths alone.
        let plan = LibraryPlan(clips: try [a, b, d].map { try clips.library($0) }, settings: settings)
        #expect(plan.composition.entries.map(\.isUsed) == c.used)
        #expect(plan.composition.entries.map { $0.start.map(rounded) } == reports[0].clips.map(\.start))
        #expect(plan.composition.entries.map { rounded($0.length) } == reports[0].clips.map(\.duration))

        // Measured within room for all of it, each kind finds the same length and gives the same samples.
        for path in [a, b, d] {
            let sources = try SourceKind.allCases.map { try clips.source(path, as: $0) }
            let extents = try sources.map { try $0.measure(within: RenderSettings().capSamples, trimSilence: c.trimSilence, sampleRate: 44_100) }
            guard case .exact(let length) = extents[0] else { Issue.record("\(path) not measured whole: \(extents[0])"); continue }
            #expect(extents.allSatisfy { $0 == .exact(length) }, "\(path): \(extents)")
            let samples = try sources.map { try $0.samples(length) }
            #expect(samples[0].count == length)
            #expect(samples[1] == samples[0], "\(path): stored samples differ")
            #expect(samples[2] == samples[0], "\(path): cached samples differ")
            #expect(sources.map(\.silenceTrimmed) == Array(repeating: sources[0].silenceTrimmed, count: 3))
            #expect((sources[0].silenceTrimmed > 0) == (c.trimSilence && path == a))
        }
    }

    @Test("A clip after the first one left out is never measured, read or opened", arguments: SourceKind.allCases)
    func neverOpened(_ kind: SourceKind) async throws {
        let clips = try Clips("never")
        let short = clips.dir.file("short.wav"), long = clips.dir.file("long.wav")
        try await AudioFixtures.tone(short, seconds: 3)
        try await AudioFixtures.tone(long, seconds: 10, frequency: 550)
        let sources = [
            Watched(try clips.source(short, as: kind)), Watched(try clips.source(long, as: kind)),
            Watched(clips.missing(as: kind)), Watched(clips.missing(as: kind)),
        ]
        let report = try RingtoneRenderer().render(sources, settings: RenderSettings(cap: 10, format: .wav), to: clips.dir.file("out.wav"))
        #expect(report.clips.map(\.used) == [true, false, false, false])
        #expect(report.clips.map(\.reason) == [nil, "crosses cap", "after a clip that crossed the cap", "after a clip that crossed the cap"])
        #expect(sources.map(\.measured) == [1, 1, 0, 0])
        #expect(sources[0].passes >= 2 && sources.map(\.passes)[1...] == [0, 0, 0], "passes: \(sources.map(\.passes))")
        #expect(sources[0].largestChunk <= 8_192, "the render streams: no piece over 8,192 samples")
    }

    struct FailureCase: CustomTestStringConvertible, Sendable {
        var kind: SourceKind
        var badIndex: Int
        var testDescription: String { "\(kind.rawValue) clip \(badIndex) fails" }
    }

    @Test(
        "A failing clip's error says which one it is and prints as the audio error",
        arguments: [
            FailureCase(kind: .decoded, badIndex: 0), FailureCase(kind: .decoded, badIndex: 2),
            FailureCase(kind: .stored, badIndex: 0), FailureCase(kind: .stored, badIndex: 2),
            FailureCase(kind: .cached, badIndex: 0), FailureCase(kind: .cached, badIndex: 2),
        ])
    func failureIndex(_ c: FailureCase) async throws {
        let clips = try Clips("fail")
        let good = clips.dir.file("good.wav"), bad = clips.dir.file("bad.flac")
        try await AudioFixtures.tone(good, seconds: 2)
        try await AudioFixtures.tone(bad, seconds: 4)
        var sources = try [good, good, good].map { try clips.source($0, as: c.kind) }
        sources[c.badIndex] = try clips.source(bad, as: c.kind)
        // Damaged after it was measured at import (stored) or before it is ever read (decoded, cached).
        let damaged = c.kind == .stored ? "\(clips.clipsDirectory)/\(try clips.library(bad).fileName)" : bad
        try AudioFixtures.truncatedCopy(of: damaged, to: damaged)
        let out = clips.dir.file("out.wav")

        let error = try #require(throws: ClipSourceError.self) {
            try RingtoneRenderer().render(sources, settings: RenderSettings(format: .wav), to: out)
        }
        #expect(error.index == c.badIndex)
        #expect(error.underlying.path == damaged)
        #expect(error.description == error.underlying.description)
        #expect(error.description.contains("truncated"), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("An output that cannot be written is the output's error, not a clip's")
    func outputError() async throws {
        let clips = try Clips("output")
        let good = clips.dir.file("good.wav")
        try await AudioFixtures.tone(good, seconds: 2)
        let out = clips.dir.file("no/such/folder/out.wav")
        #expect(throws: AudioError.cannotWrite(path: out, reason: "folder \(clips.dir.file("no/such/folder")) does not exist")) {
            try RingtoneRenderer().render([DecodingClipSource(path: good)], settings: RenderSettings(format: .wav), to: out)
        }
    }
}
