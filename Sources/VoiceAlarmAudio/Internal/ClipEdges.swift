import VoiceAlarmCore

/// One clip's samples on their way into the ringtone, with a short raised-cosine fade
/// (libavfilter's `afade`, `curve=hsin`) over each edge that is not already silent, so a clip cut
/// through a tone, a noise bed or a DC offset does not click where the next clip or the gap starts.
///
/// An edge whose samples all lie at or under `AudioLevels.silentEdgeDBFS` is left as it is (the
/// digital silence around a clean take); an edge at the very first or last sample of the ringtone
/// is left to the ringtone's own, longer fades (`AudioLevels.fadeIn`, `fadeOut`, `fadeOutAtCut`).
/// (A last clip followed by an encoder frame's padding is faded: its edge is inside.)
struct ClipEdges {
    /// The fade at a clip edge, in seconds: a few milliseconds, too short to hear as a fade.
    static let fade = AudioLevels.clipEdgeFade

    /// Samples each fade spans: the fade, or half the clip when it is shorter than two fades.
    let fadeLength: Int
    private let length: Int
    private let fadeIn: Bool
    private let fadeOut: Bool
    private let sampleRate: Int
    private let name: String
    /// Samples passed on so far (including those held for a fade).
    private(set) var given = 0
    private var held: [Float] = []

    /// - Parameters: `length`, the samples the clip will give; `fadeIn` / `fadeOut`, whether its
    ///   start / end lies inside the ringtone (not at its edges); `name`, the clip's, for errors.
    init(length: Int, sampleRate: Int, fadeIn: Bool, fadeOut: Bool, name: String) {
        self.length = length
        self.sampleRate = sampleRate
        self.fadeIn = fadeIn
        self.fadeOut = fadeOut
        self.name = name
        fadeLength = min(Int((Self.fade * Double(sampleRate)).rounded()), length / 2)
    }

    /// Passes the clip's next samples to `sink`, its edges faded; the samples of an edge are held
    /// until the edge is whole.
    mutating func pass(_ samples: ArraySlice<Float>, to sink: (ArraySlice<Float>) throws -> Void) throws {
        precondition(given + samples.count <= length, "clip gave \(given + samples.count) samples, \(length) planned")
        var rest = samples
        while !rest.isEmpty {
            let tailStart = length - fadeLength
            if fadeIn, given < fadeLength {
                let take = min(rest.count, fadeLength - given)
                held += rest.prefix(take)
                rest = rest.dropFirst(take)
                given += take
                if given == fadeLength { try sink(try release(fadingIn: true)[...]) }
            } else if fadeOut, fadeLength > 0, given >= tailStart {
                held += rest
                given += rest.count
                rest = []
                if given == length { try sink(try release(fadingIn: false)[...]) }
            } else {
                let end = fadeOut ? tailStart : length
                let take = min(rest.count, end - given)
                try sink(rest.prefix(take))
                rest = rest.dropFirst(take)
                given += take
            }
        }
    }

    /// The held edge, faded unless it is silent.
    private mutating func release(fadingIn: Bool) throws -> [Float] {
        defer { held = [] }
        let silent = Float(AudioLevels.amplitude(dB: AudioLevels.silentEdgeDBFS))
        guard held.contains(where: { abs($0) > silent }) else { return held }
        let fade = "afade=t=\(fadingIn ? "in" : "out"):ss=0:ns=\(held.count):curve=hsin"
        let faded = try FilterChain.run(fade, on: held, sampleRate: sampleRate, path: name).samples
        precondition(faded.count == held.count, "afade changed an edge's length (\(held.count) → \(faded.count))")
        return faded
    }
}
