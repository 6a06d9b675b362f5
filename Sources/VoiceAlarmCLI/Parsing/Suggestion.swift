/// "Did you mean …?": the known words closest to one that was mistyped, as git suggests.
///
/// Closeness is the optimal-string-alignment distance (insertions, deletions, substitutions and
/// swaps of two neighbouring letters each cost 1); a word within 1 edit (2 for words of five
/// letters or more), or one that a known word starts with, is suggested, nearest first.
enum Suggestion {
    /// At most `limit` candidates close to `word`, nearest first, ties in the candidates' order.
    static func closest(to word: String, among candidates: [String], limit: Int = 3) -> [String] {
        let typed = Array(word.lowercased())
        guard !typed.isEmpty else { return [] }
        let allowed = typed.count >= 5 ? 2 : 1
        var scored: [(distance: Int, order: Int, name: String)] = []
        for (order, candidate) in candidates.enumerated() where candidate.lowercased() != word.lowercased() {
            let known = Array(candidate.lowercased())
            let distance = Self.distance(typed, known)
            if distance <= allowed {
                scored.append((distance, order, candidate))
            } else if typed.count >= 3, known.starts(with: typed) {
                scored.append((allowed + 1, order, candidate))
            }
        }
        var seen = Set<String>()
        return scored.sorted { ($0.distance, $0.order) < ($1.distance, $1.order) }
            .map(\.name).filter { seen.insert($0).inserted }.prefix(limit).map { $0 }
    }

    /// `did you mean 'a' or 'b'?`, or nil when nothing is close.
    static func phrase(for word: String, among candidates: [String]) -> String? {
        let close = closest(to: word, among: candidates)
        guard !close.isEmpty else { return nil }
        let quoted = close.map { "'\($0)'" }
        let list = quoted.count == 1 ? quoted[0] : quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
        return "did you mean \(list)?"
    }

    /// The optimal-string-alignment edit distance of two words.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
