import Testing

@testable import VoiceAlarmHTTP

@Suite("Range: bytes=… on a file")
struct ByteRangeTests {
    @Test(
        "Ranges read against a 1,000-byte file",
        arguments: [
            (nil, ByteRange.whole), ("bytes=0-99", .part(0...99)), ("bytes=900-", .part(900...999)), ("bytes=-100", .part(900...999)),
            ("bytes=990-2000", .part(990...999)), ("bytes=-5000", .part(0...999)), ("bytes=1000-", .unsatisfiable), ("bytes=-0", .unsatisfiable),
            ("bytes=5-2", .whole), ("bytes=0-9,20-29", .whole), ("items=0-9", .whole), ("bytes=a-b", .whole), ("bytes=-", .whole), ("bytes=-1-2", .whole),
        ] as [(String?, ByteRange)])
    func ranges(_ header: String?, _ expected: ByteRange) {
        #expect(ByteRange.parse(header, size: 1000) == expected)
    }

    @Test("An empty file has no range to give")
    func empty() {
        #expect(ByteRange.parse("bytes=0-", size: 0) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=-10", size: 0) == .unsatisfiable)
    }
}
