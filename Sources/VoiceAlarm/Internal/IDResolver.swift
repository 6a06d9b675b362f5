import Foundation
import VoiceAlarmCore
import VoiceAlarmStore

/// Turns what a person typed — a full id or a unique prefix of at least 8 characters, in any
/// case — into the clip's or alarm's UUID. A reference with anything but hexadecimal digits and
/// dashes is refused as not an id before the library is asked (`IDPrefix`).
struct IDResolver {
    let store: LibraryStore

    func resolve(
        _ reference: String, in table: LibraryStore.IDTable, kind: String,
        unknown: (String) -> LibraryError
    ) throws -> UUID {
        let prefix: IDPrefix
        switch IDPrefix.parse(reference) {
        case .success(let parsed): prefix = parsed
        case .failure(.tooShort): throw LibraryError.shortID(reference)
        case .failure(.notAnID): throw LibraryError.notAnID(IDPrefix.shown(reference), kind: kind)
        }
        let matches = try store.ids(in: table, startingWith: prefix)
        if let full = prefix.full {
            guard matches.contains(full) else { throw unknown(reference) }
            return full
        }
        guard let first = matches.first else { throw unknown(reference) }
        guard matches.count == 1 else { throw LibraryError.ambiguousID(reference, kind: kind, count: matches.count) }
        return first
    }
}
