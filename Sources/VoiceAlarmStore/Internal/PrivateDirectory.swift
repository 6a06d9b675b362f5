import Foundation
import VoiceAlarmFiles

/// The library's folders are private: made 0700, or tightened to it when they are ours.
extension LibraryStore {
    /// Creates `path` with mode 0700 (a voice is personal), or makes an existing one private:
    /// a folder of ours that others may read, enter or write (0755, 0777) is tightened to 0700;
    /// one that belongs to another user is refused with the reason, as it is not ours to change.
    /// Then checks it is writable.
    static func makePrivateDirectory(_ path: String) throws {
        if FileSystem.kind(of: path) != .missing, !FileSystem.isDirectory(path) {
            throw StoreError.dataDirectory(path: path, reason: "exists and is not a folder")
        }
        do { try FileSystem.makeDirectory(path, permissions: 0o700) } catch {
            throw StoreError.dataDirectory(path: path, reason: "cannot be created (\(error.reason))")
        }
        do {
            let status = try FileSystem.status(of: path)
            if status.permissions & 0o077 != 0 {
                guard status.owner == FileSystem.currentUser else {
                    throw StoreError.dataDirectory(path: path, reason: String(
                        format: "is open to other users (mode %04o) and belongs to user %d, not to you (%d); make it private (chmod 700) or choose another folder",
                        status.permissions, status.owner, FileSystem.currentUser))
                }
                try FileSystem.setPermissions(path, 0o700)
            }
        } catch let error as SystemError where error.code != EROFS {
            // (A read-only mount cannot be changed by anyone here: the writable check below speaks for it.)
            throw StoreError.dataDirectory(path: path, reason: "cannot be made private (\(error.reason))")
        } catch is SystemError {}
        guard FileSystem.isWritableDirectory(path) else { throw StoreError.dataDirectory(path: path, reason: "is not writable") }
    }
}
