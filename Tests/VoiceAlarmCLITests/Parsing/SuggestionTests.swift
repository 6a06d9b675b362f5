import Testing

@testable import VoiceAlarmCLI

@Suite("Did you mean: the closest known words")
struct SuggestionTests {
    @Test(
        "Edit distance counts insertions, deletions, substitutions and swaps as one each",
        arguments: [
            ("list", "list", 0), ("lsit", "list", 1), ("lst", "list", 1), ("listt", "list", 1),
            ("lisy", "list", 1), ("render", "rendre", 1), ("", "abc", 3), ("abc", "xyz", 3),
        ])
    func distance(_ a: String, _ b: String, _ expected: Int) {
        #expect(Suggestion.distance(Array(a), Array(b)) == expected)
    }

    @Test(
        "Close words are offered nearest first; far ones are not",
        arguments: [
            ("lsit", ["list", "remove"], ["list"]), ("rmove", ["remove", "move"], ["remove", "move"]),
            ("xyz", ["list", "remove"], []), ("ren", ["rename", "render", "remove"], ["rename", "render"]),
            ("--jsn", ["--json", "--quiet"], ["--json"]),
        ])
    func closest(_ word: String, _ candidates: [String], _ expected: [String]) {
        #expect(Suggestion.closest(to: word, among: candidates) == expected)
    }
}
