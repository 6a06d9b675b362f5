import Foundation
import VoiceAlarmStore

/// Turns what a person typed — a full id or a unique prefix of at least 8 characters, in any
/// case — into the clip's or alarm's UUID.
struct IDResolver {
    let store: LibraryStore

    func resolve(_ reference: String, in table: LibraryStore.IDTable, kind: String,
                 unknown: (String) -> LibraryError) throws -> UUID {
        let text = reference.lowercased()
        if let full = UUID(uuidString: text), text.count == 36 {
            guard try store.ids(in: table, startingWith: text).contains(full) else { throw unknown(reference) }
            return full
        }
        guard text.count >= 8 else { throw LibraryError.shortID(reference) }
        let matches = try store.ids(in: table, startingWith: text)
        guard let first = matches.first else { throw unknown(reference) }
        guard matches.count == 1 else { throw LibraryError.ambiguousID(reference, kind: kind, count: matches.count) }
        return first
    }
}
