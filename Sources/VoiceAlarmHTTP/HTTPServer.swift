internal import CMicroHTTPD
import Foundation
import Glibc
import VoiceAlarmFiles

/// An HTTP or HTTPS server on libmicrohttpd: one thread per connection (a handler may take
/// seconds, a rebuild say, without holding anyone else), a connection limit, deadlines for a
/// whole request head, a small body and an answer read at a minimum rate, with the oldest
/// stalls cut first (`ConnectionDeadlines`), and an idle timeout, so a slow or abandoned client
/// cannot hold the server.
/// Stops in `deinit` (or `stop()`).
///
/// ```swift
/// let plan = ListenPlan(.accountDefault(uid: getuid()), machineAddresses: MachineAddresses.all(), hostName: "bedside")
/// let server = try HTTPServer(listening: plan.sockets, tls: identity, handler: app)
/// print(server.port)
/// ```
package final class HTTPServer: @unchecked Sendable {
    /// Limits that keep one client from holding the server.
    package struct Limits: Sendable {
        /// Connections open at once, from every client (each has its thread).
        package var connections = 1024
        /// Seconds a connection being answered (an upload, say) may stay silent before it is closed.
        package var idleTimeout = 30
        /// Deadlines for a whole request head, small body and answer, and how many connections
        /// may wait for a request or receive an answer, in all and per address (`ConnectionDeadlines`).
        package var deadlines = ConnectionDeadlines.Limits()
        package init() {}
    }

    /// Why a server did not start.
    package enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case badAddress(String)
        /// The daemon did not start: `errno` as it was then (address in use, permission, bad key).
        case notStarted(address: String, reason: String)

        package var description: String {
            switch self {
            case .badAddress(let address): "'\(address)' is not a numeric address"
            case .notStarted(let address, let reason): "cannot listen on \(address): \(reason)"
            }
        }
    }

    /// What HTTPS speaks (a GnuTLS priority string): TLS 1.3 and 1.2 only, forward-secret key
    /// exchange only, AEAD ciphers only (AES-GCM, ChaCha20-Poly1305): no TLS 1.0/1.1, no CBC with
    /// SHA-1, no static RSA. Every browser of the last years speaks these.
    static let tlsPriorities =
        "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2:-CIPHER-ALL:+AES-256-GCM:+CHACHA20-POLY1305:+AES-128-GCM:"
        + "-MAC-ALL:+AEAD:-KX-ALL:+ECDHE-ECDSA:+ECDHE-RSA:%SERVER_PRECEDENCE"

    private let daemons: [OpaquePointer]
    private let context: Unmanaged<ServerContext>
    private let stopped = Locked(false)
    /// The port it listens on (the kernel's choice when asked for port 0), the same on every socket.
    package let port: Int
    /// The sockets it holds.
    package let sockets: [ListenPlan.Socket]
    /// Whether it speaks HTTPS.
    package let isHTTPS: Bool

    /// Starts listening on every socket of `sockets` (one port for all: the kernel's choice for the
    /// first, when it is 0, is asked of the others), or on none.
    /// - Throws: `Failure.notStarted` naming the first socket it cannot hold (another program
    ///   holds it, or the machine has no such address); the sockets already held are let go.
    package init(listening sockets: [ListenPlan.Socket], tls: TLSIdentity?, limits: Limits = Limits(), handler: any HTTPHandler) throws(Failure) {
        precondition(!sockets.isEmpty, "a server listens somewhere")
        let context = Unmanaged.passRetained(ServerContext(handler: handler, watch: ConnectionWatch(limits: limits.deadlines)))
        var started: [OpaquePointer] = []
        var port = sockets[0].address.port
        for socket in sockets {
            var address = socket.address
            address.port = port
            do {
                let daemon = try Self.start(
                    address, dualStack: socket.dualStack, inherited: socket.inherited, tls: tls, limits: limits, context: context)
                started.append(daemon)
                port = Int(cmhd_port(daemon))
            } catch {
                for daemon in started { MHD_stop_daemon(daemon) }
                context.takeUnretainedValue().watch.stop()
                context.release()
                throw error
            }
        }
        daemons = started
        self.context = context
        self.sockets = sockets.map { ListenPlan.Socket(ListenAddress(host: $0.address.host, port: port), dualStack: $0.dualStack, inherited: $0.inherited) }
        self.port = port
        isHTTPS = tls != nil
    }

    /// One libmicrohttpd daemon on `address`, thread per connection, its callbacks on `context`.
    private static func start(
        _ address: ListenAddress, dualStack: Bool, inherited: Int32?, tls: TLSIdentity?, limits: Limits, context: Unmanaged<ServerContext>
    ) throws(Failure) -> OpaquePointer {
        var socketAddress = sockaddr_storage()
        guard cmhd_socket_address(address.host, UInt16(clamping: address.port), &socketAddress) == 0 else {
            throw .badAddress(address.host)
        }
        var flags = UInt32(MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue)
        if address.family == .v6 { flags |= UInt32((dualStack ? MHD_USE_DUAL_STACK : MHD_USE_IPv6).rawValue) }
        errno = 0
        let started: OpaquePointer? = withUnsafePointer(to: &socketAddress) { storage in
            storage.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                // No limit per address in libmicrohttpd itself: the owner's phone shares 127.0.0.1 (or
                // a NAT's address) with whoever else connects; the deadlines keep stalls apart.
                cmhd_start(
                    flags, socketAddress, HTTPServer.access, context.toOpaque(), HTTPServer.completed, context.toOpaque(),
                    HTTPServer.connectionNotice, context.toOpaque(),
                    UInt32(limits.connections), 0, UInt32(limits.idleTimeout), 128 * 1024,
                    tls?.keyPEM, tls?.certificatePEM, HTTPServer.tlsPriorities, 1, inherited ?? -1)
            }
        }
        guard let started else {
            let code = errno
            let reason =
                code == 0
                ? (tls == nil ? "the server did not start" : "the certificate or its key was refused")
                : String(cString: strerror(code))
            throw .notStarted(address: address.description, reason: reason)
        }
        return started
    }

    /// Closes the listening sockets and every connection, waiting for running handlers.
    package func stop() {
        guard
            stopped.withLock({
                let was = $0; $0 = true; return !was
            })
        else { return }
        for daemon in daemons { MHD_stop_daemon(daemon) }
        context.takeUnretainedValue().watch.stop()
        context.release()
    }

    deinit { stop() }

    // MARK: The C callbacks

    /// libmicrohttpd calls this first with the headers (nothing on `state`), then once per piece of
    /// body, then once more with none: the request is whole.
    private static let access: MHD_AccessHandlerCallback = { cls, connection, url, method, _, uploadData, uploadSize, state in
        guard let cls, let connection, let state, let uploadSize else { return .NO }
        let server = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
        guard let existing = state.pointee else {
            let request = HTTPServer.head(connection, url: url.map { String(cString: $0) } ?? "/", method: method.map { String(cString: $0) } ?? "GET")
            let exchange = HTTPExchange(request: request)
            state.pointee = Unmanaged.passRetained(exchange).toOpaque()
            let policy = server.handler.bodyPolicy(for: request)
            // A body into memory has a deadline of its own; a file upload is a paired device's.
            if case .inMemory = policy {
                server.watch.headArrived(id(connection), smallBody: true)
            } else {
                server.watch.headArrived(id(connection), smallBody: false)
            }
            if case .respond(let response) = policy {
                exchange.answered = true
                return queue(response, on: connection, for: request, watch: server.watch)
            }
            if let declared = request.header("content-length").flatMap(Int.init), declared > policy.limit {
                exchange.answered = true
                var tooLarge = request
                tooLarge.body = .tooLarge(limit: policy.limit)
                return queue(server.handler.respond(to: tooLarge), on: connection, for: request, watch: server.watch)
            }
            exchange.begin(policy)
            return .YES
        }
        let exchange = Unmanaged<HTTPExchange>.fromOpaque(existing).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            if !exchange.answered, let uploadData {
                exchange.receive(UnsafeRawBufferPointer(start: uploadData, count: uploadSize.pointee))
            }
            uploadSize.pointee = 0
            // Past the limit the rest is read and dropped, so the client hears why (libmicrohttpd
            // 0.9.75 answers only a whole request); a client that keeps sending long after is cut off.
            return exchange.isFarOverLimit ? .NO : .YES
        }
        guard !exchange.answered else { return .YES }
        exchange.answered = true
        server.watch.bodyArrived(id(connection))
        return queue(server.handler.respond(to: exchange.finish()), on: connection, for: exchange.request, watch: server.watch)
    }

    /// libmicrohttpd's notice that a connection opened or closed: the deadlines start and end.
    private static let connectionNotice: MHD_NotifyConnectionCallback = { cls, connection, _, notice in
        guard let cls, let connection else { return }
        let server = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
        if notice.rawValue == 0 {  // MHD_CONNECTION_NOTIFY_STARTED
            server.watch.opened(id(connection), socket: cmhd_connection_socket(connection), address: clientAddress(connection))
        } else {
            server.watch.closed(id(connection))
        }
    }

    /// A connection's key in the deadlines: its address in memory, unique while it is open.
    private static func id(_ connection: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection))) }

    /// The request is over (its answer went whole, or its client went away): its state and
    /// temporary file go, and the connection waits for its next request.
    private static let completed: MHD_RequestCompletedCallback = { cls, connection, state, _ in
        if let cls, let connection {
            Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue().watch.answered(id(connection))
        }
        guard let state, let existing = state.pointee else { return }
        state.pointee = nil
        Unmanaged<HTTPExchange>.fromOpaque(existing).takeRetainedValue().discard()
    }

    private static func head(_ connection: OpaquePointer, url: String, method: String) -> HTTPRequest {
        let headers = values(connection, .HEADER_KIND, lowercasingNames: true)
        // libmicrohttpd leaves the URL and query encoded (`cmhd_keep_escaped`): the query's names and
        // values are decoded here, the path's segments by `HTTPRequest.segments`.
        let query = Dictionary(
            values(connection, .GET_ARGUMENT_KIND, lowercasingNames: false).map { name, value in
                (name.removingPercentEncoding ?? name, value.removingPercentEncoding ?? value)
            }, uniquingKeysWith: { $1 })
        let cookies = values(connection, .COOKIE_KIND, lowercasingNames: false)
        let client = clientAddress(connection)
        let path = url.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? "/"
        return HTTPRequest(method: method, path: path, query: query, headers: headers, cookies: cookies, clientAddress: client)
    }

    /// The client's numeric address, or "" when libmicrohttpd does not know it.
    private static func clientAddress(_ connection: OpaquePointer) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        return cmhd_client_address(connection, &buffer, socklen_t(buffer.count)) == 0
            ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    }

    private final class Pairs {
        var values: [String: String] = [:]
        var lowercasingNames = false
    }

    private static func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind, lowercasingNames: Bool) -> [String: String] {
        let pairs = Pairs()
        pairs.lowercasingNames = lowercasingNames
        _ = withExtendedLifetime(pairs) {
            MHD_get_connection_values(
                connection, kind,
                { cls, _, key, value in
                    guard let cls, let key else { return .YES }
                    let pairs = Unmanaged<Pairs>.fromOpaque(cls).takeUnretainedValue()
                    let name = String(cString: key)
                    pairs.values[pairs.lowercasingNames ? name.lowercased() : name] = value.map { String(cString: $0) } ?? ""
                    return .YES
                }, Unmanaged.passUnretained(pairs).toOpaque())
        }
        return pairs.values
    }

    /// Sends `response`. A file is sent from disk, whole or the one byte range the request asks
    /// for (`Range: bytes=…`: a phone's audio player seeks with them, and Safari plays nothing
    /// without them); a file that cannot be opened is a 404 (it went between lookup and answer).
    /// From here the answer is counted and due whole by a deadline from its size (`watch`).
    private static func queue(_ response: HTTPResponse, on connection: OpaquePointer, for request: HTTPRequest, watch: ConnectionWatch) -> MHD_Result {
        var status = response.status
        var headers = response.headers
        var made: OpaquePointer?
        var bytes = 0
        switch response.body {
        case .data(let data):
            bytes = data.count
            made = data.withUnsafeBytes { bytes in cmhd_response_copying(bytes.count, bytes.baseAddress) }
        case .file(let path):
            let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            var info = stat()
            if descriptor >= 0, fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
                let size = Int(info.st_size)
                headers.append(("Accept-Ranges", "bytes"))
                switch status == 200 ? ByteRange.parse(request.header("range"), size: size) : .whole {
                case .whole:
                    bytes = size
                    made = MHD_create_response_from_fd64(UInt64(size), descriptor)  // closed by libmicrohttpd
                case .part(let range):
                    status = 206
                    headers.append(("Content-Range", "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"))
                    bytes = range.count
                    made = MHD_create_response_from_fd_at_offset64(UInt64(range.count), descriptor, UInt64(range.lowerBound))
                case .unsatisfiable:
                    close(descriptor)
                    status = 416
                    // The application's headers stay (its security headers above all); only what
                    // described the body goes, since none is sent.
                    headers = headers.filter { !HTTPServer.describesBody($0.name) } + [("Content-Range", "bytes */\(size)")]
                    made = cmhd_response_copying(0, nil)
                }
            } else {
                if descriptor >= 0 { close(descriptor) }
                status = 404
                headers = headers.filter { !HTTPServer.describesBody($0.name) }
                made = cmhd_response_copying(0, nil)
            }
        }
        guard let made else { return .NO }
        defer { MHD_destroy_response(made) }
        for (name, value) in headers { _ = MHD_add_response_header(made, name, value) }
        // Before it is queued, so its completion (`answered`) always comes after. A HEAD's
        // answer is its headers alone.
        watch.answerStarted(id(connection), bytes: request.method == "HEAD" ? 0 : bytes)
        return MHD_queue_response(connection, UInt32(status), made)
    }
}

extension HTTPServer {
    /// Whether a header describes a body that an empty answer (416, a file gone) does not send.
    static func describesBody(_ name: String) -> Bool {
        ["content-type", "content-range", "content-disposition"].contains(name.lowercased())
    }
}

extension HTTPBodyPolicy {
    /// The most body bytes this policy takes.
    var limit: Int {
        switch self {
        case .none, .respond: 0
        case .inMemory(let limit), .toFile(_, let limit): limit
        }
    }
}
