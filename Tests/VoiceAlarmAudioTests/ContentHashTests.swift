import Foundation
import TestSupport
import Testing

@testable import VoiceAlarmAudio

/// A ringtone's identity and a clip's are SHA-256 digests (Nettle's): equal to coreutils'
/// `sha256sum` of the same bytes, so identities made before and after a change of library agree.
@Suite("SHA-256 of texts and files, as sha256sum computes it")
struct ContentHashTests {
    @Test("Files of 0 bytes, one byte, and past the 1 MB read chunk hash as sha256sum says", arguments: [0, 1, 1 << 20, (1 << 20) + 4097])
    func files(_ size: Int) async throws {
        let dir = TemporaryDirectory("hash")
        let path = dir.file("bytes.bin")
        var generator = SeededGenerator(seed: UInt64(size) + 1)
        try Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: URL(fileURLWithPath: path))
        let independent = try await ProcessRunner.run("sha256sum", [path])
        #expect(independent.status == 0)
        #expect(try ContentHash.sha256(file: path) == String(independent.stdout.prefix(64)))
        #expect(ContentHash.sha256(try Data(contentsOf: URL(fileURLWithPath: path))) == String(independent.stdout.prefix(64)))
    }

    @Test("A text's UTF-8 bytes hash as sha256sum says", arguments: ["", "abc", "calm|ready|grateful|0.5|-16 LUFS", "Grüße, 朝"])
    func texts(_ text: String) async throws {
        let dir = TemporaryDirectory("hash")
        let path = dir.file("text.txt")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let independent = try await ProcessRunner.run("sha256sum", [path])
        #expect(ContentHash.sha256(text) == String(independent.stdout.prefix(64)))
    }
}
