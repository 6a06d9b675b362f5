import Foundation
import TestSupport
import Testing
import VoiceAlarmHTTP

@Suite("A browser's device key: P-256 only, and its signatures checked as openssl makes them")
struct DevicePublicKeyTests {
    @Test("openssl's key and signature verify; another message, another key or a flipped bit do not")
    func verifies() async throws {
        let folder = TemporaryDirectory("device-key")
        let key = try await BrowserKey.make(in: folder.path)
        let other = try await BrowserKey.make(in: folder.path)
        let parsed = try DevicePublicKey(base64: key.publicKey)
        let signature = try #require(Data(base64Encoded: try await key.sign("voicealarm session\nhttp://127.0.0.1:8470\nabc")))
        #expect(parsed.verifies(signature: signature, of: Data("voicealarm session\nhttp://127.0.0.1:8470\nabc".utf8)))
        #expect(!parsed.verifies(signature: signature, of: Data("voicealarm session\nhttp://127.0.0.1:18699\nabc".utf8)))
        #expect(!(try DevicePublicKey(base64: other.publicKey)).verifies(signature: signature, of: Data("voicealarm session\nhttp://127.0.0.1:8470\nabc".utf8)))
        var flipped = signature
        flipped[flipped.count - 3] ^= 0x01
        #expect(!parsed.verifies(signature: flipped, of: Data("voicealarm session\nhttp://127.0.0.1:8470\nabc".utf8)))
        #expect(!parsed.verifies(signature: Data(), of: Data("x".utf8)))
        #expect(!parsed.verifies(signature: Data(repeating: 7, count: 64), of: Data("x".utf8)), "64 bytes read as WebCrypto's r‖s, and wrong")
    }

    @Test("Keys that are not ECDSA P-256 are refused with the reason")
    func refused() async throws {
        let folder = TemporaryDirectory("device-key")
        let rsa = folder.file("rsa.pem"), p384 = folder.file("p384.pem")
        try await ProcessRunner.mustRun("/usr/bin/openssl", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", rsa])
        try await ProcessRunner.mustRun("/usr/bin/openssl", ["ecparam", "-name", "secp384r1", "-genkey", "-noout", "-out", p384])
        for (path, kind) in [(rsa, "not ECDSA"), (p384, "ECDSA of 384 bits")] {
            let spki = try await ProcessRunner.run("/bin/sh", ["-c", "openssl pkey -in \"$0\" -pubout -outform DER | base64 -w0", path]).stdout
            #expect(throws: DevicePublicKey.Failure.wrongKind(kind)) { try DevicePublicKey(base64: spki) }
        }
        #expect(throws: DevicePublicKey.Failure.notBase64) { try DevicePublicKey(base64: "not base64!") }
        #expect(throws: DevicePublicKey.Failure.self) { try DevicePublicKey(base64: Data("hello".utf8).base64EncodedString()) }
        #expect(throws: DevicePublicKey.Failure.notBase64) { try DevicePublicKey(base64: String(repeating: "A", count: 5000)) }
    }
}
