import Foundation
import TestSupport
import Testing

@testable import VoiceAlarmWeb

/// The home-screen icons: PNGs drawn here from `Page/icon.svg`'s shapes, read back by FFmpeg's
/// PNG decoder and compared with librsvg's rendering of the SVG itself (`rsvg-convert`).
@Suite("The page's icons")
struct PageIconTests {
    /// The grey levels of a PNG, as FFmpeg decodes it.
    private func grey(_ png: String) async throws -> [UInt8] {
        let result = try await ProcessRunner.run("/usr/bin/ffmpeg", ["-v", "error", "-i", png, "-f", "rawvideo", "-pix_fmt", "gray", "-"])
        #expect(result.status == 0, "\(result.stderr)")
        return [UInt8](result.stdoutData)
    }

    @Test("Each PNG icon decodes, at its size, and is the SVG drawn: within 2 % of librsvg's rendering", .timeLimit(.minutes(1)), arguments: [180, 192, 512])
    func drawnAsTheSVG(_ size: Int) async throws {
        let folder = TemporaryDirectory("icon")
        let ours = folder.file("ours.png"), theirs = folder.file("theirs.png")
        try PageIcon.png(size: size).write(to: URL(fileURLWithPath: ours))
        try await ProcessRunner.mustRun(
            "/usr/bin/rsvg-convert", ["-w", "\(size)", "-h", "\(size)", "-o", theirs, "\(ProjectPaths.root)/Sources/VoiceAlarmWeb/Page/icon.svg"])
        let a = try await grey(ours), b = try await grey(theirs)
        #expect(a.count == size * size && b.count == size * size)
        let difference = zip(a, b).reduce(0.0) { $0 + abs(Double($1.0) - Double($1.1)) } / Double(max(1, a.count)) / 255
        #expect(difference < 0.02, "mean difference \(difference)")
        // Not a blank square: the clock is there, white on blue.
        #expect(a.filter { $0 > 200 }.count > size * size / 20 && a.filter { $0 < 100 }.count > size * size / 2)
    }

    @Test("The stored deflate stream carries its Adler-32, the chunks their CRC-32 (known values)")
    func checksums() {
        #expect(PageIcon.crc32(Data("IEND".utf8)) == 0xae42_6082)
        let stream = PageIcon.zlibStored(Data("Wikipedia".utf8))
        #expect(stream.suffix(4) == Data([0x11, 0xe6, 0x03, 0x98]))
    }
}
