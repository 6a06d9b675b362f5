import Foundation
import VoiceAlarmFiles

/// The library's folders are private and the library's own: made 0700, or tightened to it.
extension LibraryStore {
    /// Creates `path` with mode 0700 (a voice is personal), or makes an existing one private,
    /// then checks it is writable. Only this process's user's folders are used: one that belongs
    /// to another user is refused with what to do (root in a person's library would leave files
    /// that person cannot read), and left as it is.
    /// - Parameters:
    ///   - followingLinks: false for the folders inside the data dir (`clips/`, `Sounds/`): a link
    ///     there is refused, never followed; a folder the person names may be reached through one.
    ///   - announce: told when a loosened mode was tightened (a folder the person chose is never
    ///     changed silently); nil to tighten quietly (the library's own folders).
    static func makePrivateDirectory(_ path: String, followingLinks: Bool = true, announce: ((String) -> Void)? = nil) throws {
        do {
            if let was = try FileSystem.makePrivateFolder(path, followingLinks: followingLinks) {
                announce?(String(format: "Made %@ private: it was open to other users (mode %04o), it is 0700 now.", path, was))
            }
        } catch {
            throw StoreError.dataDirectory(path: path, reason: Self.reason(error))
        }
        guard FileSystem.isWritableDirectory(path) else { throw StoreError.dataDirectory(path: path, reason: "is not writable") }
    }

    /// What to tell a person about a folder that cannot be the library's.
    static func reason(_ problem: FileSystem.FolderProblem) -> String {
        switch problem {
        case .notAFolder(let kind): "exists and is not a folder (it is \(kind))"
        case .symbolicLink: "is a symbolic link: the library's own folders are never followed through links (to keep sounds elsewhere, use --sounds-dir)"
        case .belongsTo(let owner, let permissions): Self.notYours(owner: owner, permissions: permissions)
        case .shared(let permissions):
            String(format: "is a folder everyone shares (mode %04o, like /tmp), never made private: make a folder of your own inside it", permissions)
        case .insideFolderOf(let owner, let parent): "would be made inside \(parent), which " + Self.notYours(owner: owner, permissions: 0)
        case .system(let error): "cannot be created or opened (\(error.reason))"
        }
    }

    /// A folder or file of another user: whose it is, and how to act as that user instead.
    static func notYours(owner: UInt32, permissions: Int) -> String {
        let me = FileSystem.currentUser
        let ownerName = FileSystem.userName(owner).map { "\($0) (\(owner))" } ?? "\(owner)"
        let myName = FileSystem.userName(me).map { "\($0), \(me)" } ?? "\(me)"
        let runAs = FileSystem.userName(owner).map { "sudo -u \($0) voicealarm …" } ?? "sudo -u '#\(owner)' voicealarm …"
        let open = permissions & 0o077 != 0 ? String(format: "is open to other users (mode %04o) and ", permissions) : ""
        return "\(open)belongs to user \(ownerName), not to you (\(myName)); a library is changed only by its owner, "
            + "so that every file in it stays readable to the alarms: run the command as that user (\(runAs)) or choose another folder"
    }
}
