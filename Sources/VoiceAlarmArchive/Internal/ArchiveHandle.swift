internal import CArchive
import Foundation

/// The one error check of the adapter: every libarchive call that returns a status goes through
/// `check`, which reads libarchive's message and `errno` (`archive_error_string`,
/// `archive_errno`) at once, before another call can change them. `ARCHIVE_WARN` is success
/// (libarchive uses it for what it worked around, e.g. an unknown header keyword).
struct ArchiveStatus {
    /// The archive's message and errno for the call that just failed.
    static func failure(_ handle: OpaquePointer, operation: String) -> (message: String, code: Int32) {
        let code = archive_errno(handle)
        let message = archive_error_string(handle).map { String(cString: $0) } ?? "\(operation) failed"
        return (message, code)
    }

    /// Throws what `make` builds from the failure when `status` is below `ARCHIVE_WARN`.
    static func check(
        _ status: Int32, _ handle: OpaquePointer, operation: String, _ make: (_ message: String, _ code: Int32) -> ArchiveError
    ) throws(ArchiveError) {
        guard status < ARCHIVE_WARN else { return }
        let (message, code) = failure(handle, operation: operation)
        throw make(message, code)
    }
}
