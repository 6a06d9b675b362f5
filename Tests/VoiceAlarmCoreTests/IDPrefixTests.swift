import Foundation
import Testing
import VoiceAlarmCore

@Suite("What an id reference may be")
struct IDPrefixTests {
    static let id = "5b1e09c2-7d4a-4c1e-9f3b-0a1b2c3d4e5f"

    @Test(
        "Hexadecimal digits and dashes, 8 to 36 of them, in either case; nothing else",
        arguments: [
            ("5b1e09c2", "5b1e09c2"),
            ("5B1E09C2", "5b1e09c2"),
            ("5b1e09c2-7d4a", "5b1e09c2-7d4a"),
            (id, id),
            (id.uppercased(), id),
            ("--------", "--------"),
            ("0123456789abcdefABCDEF-0123456789ab", "0123456789abcdefabcdef-0123456789ab"),
        ])
    func accepted(_ reference: String, _ text: String) throws {
        let prefix = try IDPrefix.parse(reference).get()
        #expect(prefix.text == text)
        #expect(prefix.text.count == reference.count)
    }

    @Test(
        "Wildcards, other letters, spaces, control characters and anything longer than an id are not ids",
        arguments: [
            "________", "%%%%%%%%", "5b1e09c%", "5b1e09c_", "5b1e_9c2", "*", "5b1e09c2*", "5b1e09c2?",
            "5b1e09g2", "zzzzzzzz", "5b1e09c2 ", " 5b1e09c2", "5b1e\n09c2", "5b1e09c2\u{0}", "5b1e09c2'--",
            "５b1e09c2", "5b1e09c2é", "5b1e09c2\u{301}", id + "0", id + "-", String(repeating: "a", count: 60_000),
            "____", "%", "_",
        ])
    func refused(_ reference: String) {
        #expect(IDPrefix.parse(reference) == .failure(.notAnID))
    }

    @Test("Fewer than 8 possible characters is too short, not a wrong id", arguments: ["", "5", "5b1e09c", "-------", "ABCDEF0"])
    func tooShort(_ reference: String) {
        #expect(IDPrefix.parse(reference) == .failure(.tooShort))
    }

    @Test(
        "A whole id is known as one; a prefix, or 36 characters that do not spell a UUID, is not",
        arguments: [
            (id, UUID(uuidString: id)),
            (id.uppercased(), UUID(uuidString: id)),
            ("5b1e09c2-7d4a-4c1e-9f3b", nil),
            ("5b1e09c27d4a4c1e9f3b0a1b2c3d4e5f----", nil),
        ] as [(String, UUID?)])
    func full(_ reference: String, _ full: UUID?) throws {
        #expect(try IDPrefix.parse(reference).get().full == full)
    }

    @Test(
        "A refused reference is echoed on one line and at most 40 characters",
        arguments: [
            ("________", "________"),
            ("5b1e\n09c2", "5b1e\\u{A}09c2"),
            (String(repeating: "%", count: 60_000), String(repeating: "%", count: 39) + "…"),
            (String(repeating: "x", count: 40), String(repeating: "x", count: 40)),
        ])
    func shown(_ reference: String, _ shown: String) {
        #expect(IDPrefix.shown(reference) == shown)
    }
}
