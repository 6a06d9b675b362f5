/// What a server asks of the application behind it: how to take a request's body (before any of
/// it is read) and the response to a whole request. Called on the server's connection threads,
/// possibly at once for different connections.
package protocol HTTPHandler: Sendable {
    /// Decided from the request line and headers (`request.body` is `.empty` here).
    func bodyPolicy(for request: HTTPRequest) -> HTTPBodyPolicy
    func respond(to request: HTTPRequest) -> HTTPResponse
}
