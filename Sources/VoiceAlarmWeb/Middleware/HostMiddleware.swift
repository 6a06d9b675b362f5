import VoiceAlarmFiles
import VoiceAlarmHTTP

/// Refuses (421) a request whose `Host` is not one of this server's names and port
/// (`HostCheck`), before anything else is read of it: DNS rebinding finds nothing, not even the
/// pairing page.
struct HostMiddleware: WebMiddleware {
    let hosts: Set<String>
    /// The port the server listens on, once it does.
    let port: ListeningPort

    func admit(_ exchange: inout WebExchange) -> HTTPResponse? {
        guard let problem = HostCheck.problem(exchange.request, hosts: hosts, port: port.current) else { return nil }
        return WebFailure(status: 421, message: problem, input: "Host").response
    }
}

/// The port a server listens on, known once it does (port 0 asks the kernel to choose).
final class ListeningPort: Sendable {
    private let value = Locked<Int?>(nil)
    var current: Int? { value.withLock { $0 } }
    func set(_ port: Int) { value.withLock { $0 = port } }
}
