internal import CGnuTLS
import Foundation

/// GnuTLS passes bytes in and out as a `gnutls_datum_t` (a pointer and a size): these
/// functions are the only places that build or read one.
enum Datum {
    /// Calls `body` with a datum over the UTF-8 bytes of `text`, valid only during the call. The
    /// bytes are followed by a NUL the datum's size leaves out, so the pointer is never null (an
    /// empty text too) and a parser that reads one byte too far finds a terminator.
    static func with<Result>(_ text: String, _ body: (UnsafePointer<gnutls_datum_t>) -> Result) -> Result {
        var bytes = Array(text.utf8)
        let size = UInt32(bytes.count)
        bytes.append(0)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            var datum = gnutls_datum_t(data: buffer.baseAddress, size: size)
            return body(&datum)
        }
    }

    /// Calls `body` with a datum over `bytes`, valid only during the call (never a null pointer).
    static func with<Result>(bytes: Data, _ body: (UnsafePointer<gnutls_datum_t>) -> Result) -> Result {
        var copy = [UInt8](bytes)
        let size = UInt32(copy.count)
        copy.append(0)
        return copy.withUnsafeMutableBufferPointer { buffer in
            var datum = gnutls_datum_t(data: buffer.baseAddress, size: size)
            return body(&datum)
        }
    }

    /// The text GnuTLS wrote into a datum it allocated (an export in PEM), freeing the datum's bytes.
    /// - Throws: the call's `GnuTLSError`; nothing is left to free then.
    static func exported(_ operation: String, _ call: (UnsafeMutablePointer<gnutls_datum_t>) -> Int32) throws(GnuTLSError) -> String {
        var datum = gnutls_datum_t(data: nil, size: 0)
        try GnuTLSError.check(operation) { call(&datum) }
        defer { cgnutls_free(datum.data) }
        guard let data = datum.data else { return "" }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(datum.size)), as: UTF8.self)
    }
}
