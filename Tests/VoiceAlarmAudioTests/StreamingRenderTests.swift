import Foundation
import TestSupport
import Testing
import VoiceAlarmCore

@testable import VoiceAlarmAudio

private let speech = ["calm.wav", "ready.mp3", "grateful.m4a", "kind.ogg"].map { "\(ProjectPaths.sampleAudio)/\($0)" }

/// The filters a render runs, as it builds them: fades alone (`--no-normalize`), and fades,
/// gain and the limiter.
private let chains = [
    "afade=t=in:ss=0:ns=2205:curve=hsin,afade=t=out:ss=%END%:ns=22050:curve=hsin",
    "afade=t=in:ss=0:ns=2205:curve=hsin,afade=t=out:ss=%END%:ns=22050:curve=hsin,volume=6.284dB:precision=float,alimiter=limit=0.83176:level=false:latency=true:attack=5:release=50",
]

/// Measured sources and their plan, as a render makes them.
private func planned(_ paths: [String], settings: RenderSettings) throws -> ([any ClipSource], Composition) {
    let sources: [any ClipSource] = paths.map(DecodingClipSource.init(path:))
    var planner = CompositionPlanner(settings: settings)
    for source in sources {
        guard let budget = planner.budgetForNextClip else { break }
        planner.add(try source.measure(within: budget, trimSilence: settings.trimSilence, sampleRate: settings.sampleRate))
    }
    return (sources, planner.composition)
}

/// The ringtone assembled whole, the way renders did before they streamed: each clip read whole,
/// its inner edges (not at the ringtone's start or end) faded over the whole clip by one `afade`
/// chain, unless silent.
private func assembledWhole(_ sources: [any ClipSource], _ composition: Composition) throws -> [Float] {
    var mix = [Float](repeating: 0, count: composition.totalSamples)
    let silent = Float(AudioLevels.amplitude(dB: AudioLevels.silentEdgeDBFS))
    for entry in composition.usedEntries {
        var clip = try sources[entry.index].samples(entry.length)
        let fade = min(Int((AudioLevels.clipEdgeFade * 44_100).rounded()), clip.count / 2)
        var filters: [String] = []
        if entry.start! > 0, clip.prefix(fade).contains(where: { abs($0) > silent }) {
            filters.append("afade=t=in:ss=0:ns=\(fade):curve=hsin")
        }
        if entry.start! + entry.length < composition.totalSamples, clip.suffix(fade).contains(where: { abs($0) > silent }) {
            filters.append("afade=t=out:ss=\(clip.count - fade):ns=\(fade):curve=hsin")
        }
        if fade > 0, !filters.isEmpty {
            clip = try FilterChain.run(filters.joined(separator: ","), on: clip, sampleRate: 44_100, path: "whole clip").samples
        }
        mix.replaceSubrange(entry.start!..<entry.start! + entry.length, with: clip)
    }
    return mix
}

@Suite("A streamed render holds the samples the whole-buffer render held")
struct StreamingRenderTests {
    @Test("The mix played in chunks is the mix assembled whole, sample for sample")
    func mixEqualsWhole() throws {
        let (sources, composition) = try planned(speech, settings: RenderSettings())
        var streamed: [Float] = []
        var largest = 0
        try MixStream(sources: sources, composition: composition, sampleRate: 44_100).play {
            streamed += $0; largest = max(largest, $0.count)
        }
        #expect(streamed == (try assembledWhole(sources, composition)))
        #expect(largest <= MixStream.chunk)
    }

    @Test("Fades, gain and limiter streamed in chunks give the samples of one run over the whole buffer", arguments: chains)
    func chainEqualsWhole(_ template: String) throws {
        let (sources, composition) = try planned(speech, settings: RenderSettings())
        let filters = template.replacingOccurrences(of: "%END%", with: "\(composition.totalSamples - 22_050)")
        let whole = try FilterChain.run(filters, on: try assembledWhole(sources, composition), sampleRate: 44_100, path: "whole").samples
        let chain = try FilterChain(description: filters, sampleRate: 44_100, path: "streamed", keepSamples: false)
        var streamed: [Float] = []
        chain.onOutput = { streamed += $0 }
        try MixStream(sources: sources, composition: composition, sampleRate: 44_100).play { try chain.push($0) }
        _ = try chain.finish()
        #expect(streamed.count == whole.count)
        #expect(streamed == whole, "first difference at \(streamed.indices.first { $0 < whole.count && streamed[$0] != whole[$0] } ?? -1)")
    }

    @Test("A --no-normalize wav holds exactly the whole-buffer result, as ffmpeg decodes it")
    func wavEqualsWholeRender() async throws {
        let dir = TemporaryDirectory("stream-wav")
        let settings = RenderSettings(normalize: false, format: .wav)
        let out = dir.file("ringtone.wav")
        _ = try RingtoneRenderer().render(speech.map(DecodingClipSource.init(path:)), settings: settings, to: out)
        let (sources, composition) = try planned(speech, settings: settings)
        let total = composition.totalSamples
        let fadeOut = min(Int(AudioLevels.fadeOut * 44_100), total / 2)
        let filters =
            "afade=t=in:ss=0:ns=\(min(Int(AudioLevels.fadeIn * 44_100), total / 2)):curve=hsin,afade=t=out:ss=\(total - fadeOut):ns=\(fadeOut):curve=hsin"
        let whole = try FilterChain.run(filters, on: try assembledWhole(sources, composition), sampleRate: 44_100, path: "whole").samples
        let reference = dir.file("whole.wav")
        try RingtoneEncoder(settings: settings).write(whole, to: reference)
        let decoded = try await IndependentMeasure.decodedSamples(out)
        #expect(decoded.count == whole.count)
        await #expect(decoded == (try IndependentMeasure.decodedSamples(reference)), "ffmpeg reads back other samples than the whole-buffer render made")
    }
}
