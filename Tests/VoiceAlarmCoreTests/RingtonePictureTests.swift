import Testing
import VoiceAlarmCore

@Suite("RingtonePicture: the envelope, the blocks, the text")
struct RingtonePictureModelTests {
    @Test("The envelope holds each column's smallest and largest sample, 0 included")
    func envelope() {
        let samples: [Float] = [0.5, -0.25, 0.1, 0.9, -0.8, 0.2, 0.3, 0.4]
        let columns = RingtonePicture.envelope(samples[...], columns: 4)
        #expect(columns.map(\.min) == [-0.25, 0, -0.8, 0])
        #expect(columns.map(\.max) == [0.5, 0.9, 0.2, 0.4])
        #expect(RingtonePicture.envelope(samples[...], columns: 16).count == 16, "more columns than samples repeat samples")
        #expect(RingtonePicture.envelope([][...], columns: 4).isEmpty)
    }

    @Test("blocks is as wide as asked, silent columns blank, a bar where each later clip starts")
    func blocks() {
        let loud = [Float](repeating: 1, count: 100), quiet = [Float](repeating: 0, count: 100)
        let picture = RingtonePicture(
            name: "x", samples: loud + quiet + loud, sampleRate: 100, cap: 29,
            spans: [
                .init(title: "a", start: 0, duration: 1, used: true, reason: nil),
                .init(title: "b", start: 2, duration: 1, used: true, reason: nil),
            ])
        let line = picture.blocks(columns: 30)
        #expect(line.count == 30)
        #expect(line.prefix(10).allSatisfy { $0 == "█" })
        #expect(line.dropFirst(10).prefix(10).allSatisfy { $0 == " " })
        #expect(Array(line)[20] == "│")
    }

    @Test("The SVG escapes titles, names the cap and has the caption")
    func svgText() {
        let picture = RingtonePicture(
            name: "a <b> & \"c\"", samples: [Float](repeating: 0.5, count: 44_100), sampleRate: 44_100, cap: 29,
            spans: [
                .init(title: "it's", start: 0, duration: 20, used: true, reason: nil),
                .init(title: "long", start: 1.3, duration: 40, used: false, reason: "crosses cap"),
            ],
            loudness: -16, truePeak: -1.2)
        let svg = picture.svg(width: 600)
        #expect(svg.contains("a &lt;b&gt; &amp; &quot;c&quot;"))
        #expect(svg.contains("it&apos;s"))
        #expect(svg.contains("29 s cap"))
        #expect(svg.contains("width=\"600\" height=\"150\""))
        #expect(picture.caption == "a <b> & \"c\" · 1.00 s of the 29 s cap · -16.0 LUFS · true peak -1.2 dBTP")
    }
}
