import Foundation
import TestSupport
import Testing
import VoiceAlarmHTTP

@Suite("QR codes", .timeLimit(.minutes(1)))
struct QRCodeTests {
    static let texts = [
        "https://192.168.1.20:8470/pair?code=ABCD2345",
        "https://bedside.local:8470/pair?code=K7QX2MPA&fingerprint=3F:A0:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE",
        "https://[fe80::1]:8470/",
        "HELLO",
    ]

    @Test("zbarimg reads the terminal drawing back as the text", arguments: texts)
    func scans(text: String) async throws {
        #expect(try await TerminalQR.scan(try QRCode(encoding: text).terminalText()) == text)
    }

    @Test("the drawing is what qrencode -t UTF8 prints", arguments: [2, 4])
    func sameAsQrencode(quietZone: Int) async throws {
        let text = Self.texts[0]
        let result = try await ProcessRunner.run("qrencode", ["-t", "UTF8", "-l", "M", "-m", "\(quietZone)", text])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try QRCode(encoding: text).terminalText(quietZone: quietZone) + "\n" == result.stdout)
    }

    @Test("the drawing holds the code and its quiet zone", arguments: [0, 1, 2, 3, 4])
    func quietZone(margin: Int) throws {
        let code = try QRCode(encoding: Self.texts[0])
        let rows = try TerminalQR.modules(inDrawing: code.terminalText(quietZone: margin))
        #expect(rows.count == code.size + 2 * margin + (code.size + 2 * margin) % 2)  // an odd count ends in a light half row
        for (y, row) in rows.enumerated() {
            #expect(row.count == code.size + 2 * margin)
            for (x, dark) in row.enumerated() where dark != code.isDark(x: x - margin, y: y - margin) {
                Issue.record("module \(x - margin), \(y - margin) drawn \(dark ? "dark" : "light")")
            }
        }
    }

    @Test("the three finder patterns are where a scanner looks")
    func finders() throws {
        let code = try QRCode(encoding: "HELLO")
        #expect(code.size == 21)
        for (x, y) in [(0, 0), (code.size - 7, 0), (0, code.size - 7)] {
            #expect(code.isDark(x: x, y: y) && code.isDark(x: x + 6, y: y + 6) && code.isDark(x: x + 3, y: y + 3))
            #expect(!code.isDark(x: x + 1, y: y + 1))
        }
        #expect(!code.isDark(x: -1, y: 0) && !code.isDark(x: 0, y: code.size))
    }

    @Test(
        "up to 2,331 bytes fit (version 40, level M); more are refused",
        arguments: [
            (2_331, nil), (2_332, QRCode.Failure.tooLong(bytes: 2_332)), (8_000, .tooLong(bytes: 8_000)),
        ] as [(Int, QRCode.Failure?)])
    func capacity(bytes: Int, failure: QRCode.Failure?) throws {
        let text = String(repeating: "a", count: bytes)
        if let failure {
            #expect(throws: failure) { try QRCode(encoding: text) }
        } else {
            #expect(try QRCode(encoding: text).size == 177)
        }
    }

    @Test("a NUL is refused rather than cut at")
    func nul() {
        #expect(throws: QRCode.Failure.containsNUL) { try QRCode(encoding: "https://a\u{0}b") }
    }
}
