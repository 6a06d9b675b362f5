import Foundation
import VoiceAlarmFiles

/// The library's folders are private and the library's own: made 0700, or tightened to it.
extension LibraryStore {
    /// Creates `path` with mode 0700 (a voice is personal), or makes an existing one private,
    /// then checks it is writable. Only this process's user's folders are used (`PrivateFolder`):
    /// one that belongs to another user is refused with what to do, and left as it is.
    /// - Parameters:
    ///   - links: `.ownOnly` for the folders inside the data dir (`clips/`, `Sounds/`): a link
    ///     another user planted there is refused, never followed; a folder the person names may be
    ///     reached through any link.
    ///   - announce: told when a loosened mode was tightened (a folder the person chose is never
    ///     changed silently); nil to tighten quietly (the library's own folders).
    static func makePrivateDirectory(
        _ path: String, links: PrivateFolder.Links = .followed, announce: ((_ path: String, _ previousMode: UInt32) -> Void)? = nil
    ) throws {
        do {
            if let was = try PrivateFolder.make(path, links: links) {
                announce?(path, UInt32(was))
            }
        } catch {
            throw StoreError.dataDirectory(path: path, reason: Self.reason(error))
        }
        guard FileSystem.isWritableDirectory(path) else { throw StoreError.dataDirectory(path: path, reason: "is not writable") }
    }

    /// Whether `makePrivateDirectory` would accept `path`, making and changing nothing.
    /// - Throws: `StoreError.dataDirectory` naming what is wrong.
    static func checkPrivateDirectory(_ path: String, links: PrivateFolder.Links = .followed) throws {
        do { try PrivateFolder.check(path, links: links) } catch {
            throw StoreError.dataDirectory(path: path, reason: Self.reason(error))
        }
        if FileSystem.kind(of: path) != .missing, !FileSystem.isWritableDirectory(path) {
            throw StoreError.dataDirectory(path: path, reason: "is not writable")
        }
    }

    /// What to tell a person about a folder that cannot be the library's.
    static func reason(_ problem: PrivateFolder.Problem) -> String {
        switch problem {
        case .notAFolder(let kind): "exists and is not a folder (it is \(kind))"
        case .symbolicLink(let owner):
            "is a symbolic link that user \(Self.name(of: owner)) made, not you: the library's own folders are followed only through your own links"
        case .belongsTo(let owner, let permissions): Self.notYours(owner: owner, permissions: permissions)
        case .shared(let permissions):
            String(format: "is a folder everyone shares (mode %04o, like /tmp), never made private: make a folder of your own inside it", permissions)
        case .insideFolderOf(let owner, let parent): "would be made inside \(parent), which " + Self.notYours(owner: owner, permissions: 0)
        case .system(let error): "cannot be created or opened (\(error.reason))"
        }
    }

    /// A user as a person reads it: `name (uid)`, or the bare id.
    static func name(of uid: UInt32) -> String { FileSystem.userName(uid).map { "\($0) (\(uid))" } ?? "\(uid)" }

    /// A folder or file of another user: whose it is, and how to act as that user instead.
    static func notYours(owner: UInt32, permissions: Int) -> String {
        let me = FileSystem.currentUser
        let myName = FileSystem.userName(me).map { "\($0), \(me)" } ?? "\(me)"
        let runAs = FileSystem.userName(owner).map { "sudo -u \($0) voicealarm …" } ?? "sudo -u '#\(owner)' voicealarm …"
        let open = permissions & 0o077 != 0 ? String(format: "is open to other users (mode %04o) and ", permissions) : ""
        return "\(open)belongs to user \(name(of: owner)), not to you (\(myName)); a library is changed only by its owner, "
            + "so that every file in it stays readable to the alarms: run the command as that user (\(runAs)) or choose another folder"
    }
}
