import Foundation

/// What the server sends back: a status, headers in order, and a body from memory or a file.
package struct HTTPResponse: Sendable {
    package var status: Int
    package var headers: [(name: String, value: String)]
    package var body: Body

    package enum Body: Sendable {
        case data(Data)
        /// A file sent as it is on disk (a ringtone, a clip); the server opens it when it answers.
        case file(path: String)
    }

    package init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .data(Data())) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// `text` as UTF-8 with `contentType`.
    package static func text(_ status: Int, _ text: String, contentType: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", contentType)], body: .data(Data(text.utf8)))
    }

    package func header(_ name: String) -> String? {
        headers.last { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// This response with one more header.
    package func adding(_ name: String, _ value: String) -> HTTPResponse {
        var copy = self
        copy.headers.append((name, value))
        return copy
    }
}
