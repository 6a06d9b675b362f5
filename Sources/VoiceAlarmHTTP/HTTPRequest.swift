import Foundation

/// One request as the server read it: method, decoded path and query, headers (names lowercased),
/// cookies, the client's address, and the body the handler's policy allowed.
package struct HTTPRequest: Sendable {
    package var method: String
    /// The path as it was sent, still percent-encoded, without the query
    /// (`/api/playlists/x%2Fy`); `segments` are its decoded parts.
    package var path: String
    package var query: [String: String]
    /// Header names lowercased; a repeated header keeps its last value.
    package var headers: [String: String]
    package var cookies: [String: String]
    /// The client's numeric address (`127.0.0.1`, `::1`, `192.168.1.7`).
    package var clientAddress: String
    package var body: HTTPBody

    package init(
        method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
        cookies: [String: String] = [:], clientAddress: String = "127.0.0.1", body: HTTPBody = .empty
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.cookies = cookies
        self.clientAddress = clientAddress
        self.body = body
    }

    package func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The path's segments, matched before they are decoded: split on the byte "/" (never on a
    /// character a combining mark joins to it), then each percent-decoded, so a name may hold
    /// "/", "?" or "#" when it is sent encoded: `/api/playlists/x%2Fy` → `["api", "playlists", "x/y"]`.
    /// A segment whose escapes are not UTF-8 stays as it was sent.
    package var segments: [String] {
        path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).map { part in
            let sent = String(decoding: part, as: UTF8.self)
            return sent.removingPercentEncoding ?? sent
        }
    }
}

/// What came with a request.
package enum HTTPBody: Sendable, Equatable {
    case empty
    /// A small body, in memory.
    case data(Data)
    /// A body streamed to a private temporary file, removed once the response is sent.
    case file(path: String, bytes: Int)
    /// More than the policy's limit arrived: none of it was kept.
    case tooLarge(limit: Int)
    /// The body could not be kept (its temporary file could not be made or written: a full disk):
    /// none of it was kept.
    case unsaved(reason: String)
}

/// How the server takes a request's body, decided from its method, path and headers before any
/// of the body is read.
package enum HTTPBodyPolicy: Sendable {
    /// No body expected: any that comes is refused as too large past `0` bytes.
    case none
    /// Kept in memory, at most `limit` bytes.
    case inMemory(limit: Int)
    /// Streamed to a new file in `directory` (which must exist and be private), at most `limit` bytes.
    case toFile(directory: String, limit: Int)
    /// Answered at once, before the body is read (a request without a device, a body declared too large).
    case respond(HTTPResponse)
}
