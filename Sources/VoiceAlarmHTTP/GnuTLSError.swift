internal import CGnuTLS

/// A GnuTLS call that failed: which call, the negative code it returned, and GnuTLS's text for
/// that code (`gnutls_strerror`).
///
/// Every GnuTLS call of this module goes through `GnuTLSError.check(_:_:)`, the one place where a
/// GnuTLS return code becomes an error, as SwiftFFmpeg sends FFmpeg's codes through one check.
package struct GnuTLSError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The call that failed, e.g. `gnutls_x509_crt_sign2`.
    package var operation: String
    /// The code it returned, one of GnuTLS's negative `GNUTLS_E_…` values.
    package var code: Int32

    /// An error for `operation` with GnuTLS's code `code`.
    package init(operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }

    /// GnuTLS's one-line text for the code, without its closing full stop, e.g.
    /// "Base64 decoding error". The corresponding C function is `gnutls_strerror`.
    package var reason: String {
        let text = String(cString: gnutls_strerror(code))
        return text.hasSuffix(".") ? String(text.dropLast()) : text
    }

    package var description: String { "\(operation): \(reason)" }

    /// Returns the call's result when it is not negative (GnuTLS's success, `GNUTLS_E_SUCCESS`, is
    /// 0, and some calls return a positive count); otherwise throws it as a `GnuTLSError`.
    @discardableResult
    static func check(_ operation: String, _ call: () -> Int32) throws(GnuTLSError) -> Int32 {
        let result = call()
        guard result >= 0 else { throw GnuTLSError(operation: operation, code: result) }
        return result
    }
}
