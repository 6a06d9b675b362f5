import Foundation
import TestSupport
import Testing
import VoiceAlarmHTTP

@Suite("Pairing secrets", .timeLimit(.minutes(1)))
struct SecretTests {
    @Test(
        "digest is the SHA-256 sha256sum prints for the same UTF-8 bytes",
        arguments: ["", "abc", "réveil à 6 h 30 ☀️", "two\nlines\n", String(repeating: "token", count: 1_000)])
    func digest(text: String) async throws {
        let folder = TemporaryDirectory("secret")
        let file = folder.file("text")
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let result = try await ProcessRunner.run("sha256sum", [file])
        #expect(result.status == 0)
        let printed = try #require(result.stdout.split(separator: " ").first)
        #expect(Secret.digest(text) == String(printed))
    }

    @Test("a token is 43 characters of base64url, 32 bytes, and new each time")
    func token() throws {
        let tokens = try (0..<100).map { _ in try Secret.token() }
        let base64url = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        for token in tokens {
            #expect(token.count == 43)
            #expect(token.allSatisfy(base64url.contains))
            let base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/") + "="
            #expect(Data(base64Encoded: base64)?.count == 32)
        }
        #expect(Set(tokens).count == tokens.count)
    }

    @Test("the code alphabet has 32 letters and no look-alikes")
    func alphabet() {
        #expect(Set(Secret.codeAlphabet).count == 32)
        #expect(Secret.codeAlphabet.count == 32)
        #expect(!Secret.codeAlphabet.contains { "0O1Il".contains($0) })
    }

    @Test("a code is 10 letters (50 bits) unless asked otherwise")
    func defaultLength() throws { #expect(try Secret.code().count == 10) }

    @Test("a code has the length asked, in the code alphabet", arguments: [1, 6, 8, 12])
    func code(length: Int) throws {
        for _ in 0..<200 {
            let code = try Secret.code(length: length)
            #expect(code.count == length)
            #expect(code.allSatisfy(Secret.codeAlphabet.contains))
        }
    }

    /// 20,000 codes of 8: 160,000 letters, 5,000 expected of each; one letter's count has a
    /// standard deviation of about 70, so ±400 (5.7 σ) fails a fair generator about once in three
    /// million runs, while a letter favoured or slighted by a tenth (500 off, less than the
    /// 1/8 that folding 256 byte values onto a 33-letter alphabet would give) fails every time.
    @Test("over 20,000 codes every letter comes up about as often")
    func unbiased() throws {
        var counts: [Character: Int] = [:]
        for _ in 0..<20_000 {
            for letter in try Secret.code(length: 8) { counts[letter, default: 0] += 1 }
        }
        #expect(counts.count == 32)
        for letter in Secret.codeAlphabet {
            #expect(abs(counts[letter, default: 0] - 5_000) < 400, "\(letter): \(counts[letter, default: 0])")
        }
        // The positions too: the first letter of a code is as random as the last.
        let firsts = try (0..<3_200).map { _ in try Secret.code(length: 1) }
        #expect(Set(firsts).count == 32)
    }
}
