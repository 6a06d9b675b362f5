/// Ids as a list shows them: the first 8 characters (what every command accepts), or more
/// where 8 would not tell two listed ids apart — like git's abbreviated hashes.
enum ShortID {
    /// The shortest prefix length, at least 8, that keeps every id of `ids` distinct.
    static func length(for ids: [String]) -> Int {
        var length = 8
        while length < (ids.map(\.count).max() ?? 8), Set(ids.map { $0.prefix(length) }).count < Set(ids).count { length += 1 }
        return length
    }

    /// Every id cut to the same unambiguous length.
    static func column(_ ids: [String]) -> [String] {
        let length = length(for: ids)
        return ids.map { String($0.prefix(length)) }
    }
}
