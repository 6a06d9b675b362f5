import Foundation
import VoiceAlarmCore

/// A system call that failed: which call, on which path, and the `errno` it left, captured at
/// the failing call (before anything else can overwrite it).
///
/// Every raw POSIX call of the project goes through `SystemError.check(_:_:path:)` (or
/// `SystemError.capture(_:path:)` when the failure is seen some other way), the one entry point
/// where `errno` is read, as swift-system reads it in one place.
package struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The call that failed, e.g. `rename`.
    package var operation: String
    /// The file or folder it was about.
    package var path: String
    /// The `errno` value.
    package var code: Int32

    /// An error for `operation` on `path` with the `errno` value `code`.
    package init(operation: String, path: String, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// The system's text for the code (`strerror`), e.g. "No space left on device".
    package var reason: String { String(cString: strerror(code)) }

    package var description: String { "\(path): \(reason)" }

    /// The error for a call that just failed, reading `errno` now. Call it first thing after the failure.
    package static func capture(_ operation: String, path: String) -> SystemError {
        SystemError(operation: operation, path: path, code: errno)
    }

    /// Returns the call's result when it is not -1; otherwise throws the error with `errno` as the
    /// call left it. `EINTR` is retried by running `call` again, in this one place.
    @discardableResult
    package static func check<Result: BinaryInteger>(_ operation: String, path: String, _ call: () -> Result) throws(SystemError) -> Result {
        while true {
            let result = call()
            if result != -1 { return result }
            let code = errno
            if code == EINTR { continue }
            throw SystemError(operation: operation, path: path, code: code)
        }
    }
}

extension SystemError {
    /// A file error thrown by Foundation (`NSCocoaErrorDomain`, `NSPOSIXErrorDomain`) as the file
    /// and the POSIX reason, instead of Foundation's multi-line dump. The code is the POSIX error
    /// underneath when Foundation kept one, else `EIO`; the path is the one Foundation names,
    /// else `path`.
    package init(foundation error: any Error, operation: String, path: String) {
        let ns = error as NSError
        let named = (ns.userInfo[NSFilePathErrorKey] as? String) ?? (ns.userInfo[NSURLErrorKey] as? URL)?.path
        self.init(operation: operation, path: named ?? path, code: ns.underlyingPOSIXCode ?? EIO)
    }

    /// Whether `error` comes from Foundation rather than from VoiceAlarm (whose errors describe
    /// themselves in one line).
    package static func isFoundationError(_ error: any Error) -> Bool {
        let domain = (error as NSError).domain
        return domain == NSCocoaErrorDomain || domain == NSPOSIXErrorDomain
    }

    /// How `error` reads after `error: ` on a user's one line: VoiceAlarm's errors as they
    /// describe themselves, Foundation's as `path: reason` (see `init(foundation:operation:path:)`).
    /// Every place that prints an error it did not make itself goes through here.
    package static func text(of error: any Error, path: String = "") -> String {
        guard isFoundationError(error) else { return "\(error)" }
        let translated = SystemError(foundation: error, operation: "file", path: path)
        return translated.path.isEmpty ? translated.reason : translated.description
    }
}

extension NSError {
    /// The POSIX code behind a Foundation file error, when there is one.
    var underlyingPOSIXCode: Int32? {
        if domain == NSPOSIXErrorDomain { return Int32(code) }
        // Foundation keeps the cause as a `POSIXError` value, which does not cast to NSError directly.
        guard let underlying = userInfo[NSUnderlyingErrorKey] as? any Error else { return nil }
        return (underlying as NSError).underlyingPOSIXCode
    }
}

extension SystemError: ClassifiedError {
    /// The machine's: a disk, a permission, a missing folder; a full disk or quota (`ENOSPC`,
    /// `EDQUOT`) is said apart.
    package var failureKind: FailureKind { [ENOSPC, EDQUOT].contains(code) ? .diskFull : .environment }
    package var failureInput: String? { path }
}
