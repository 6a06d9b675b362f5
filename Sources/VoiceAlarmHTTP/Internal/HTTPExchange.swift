import Foundation
import VoiceAlarmFiles

/// The application behind a server, kept alive for the daemon's callbacks.
final class ServerContext: @unchecked Sendable {
    let handler: any HTTPHandler
    let watch: ConnectionWatch
    init(handler: any HTTPHandler, watch: ConnectionWatch) {
        self.handler = handler
        self.watch = watch
    }
}

/// One request in flight: its head, and its body as it arrives (in memory or in a private file).
final class HTTPExchange {
    var request: HTTPRequest
    var answered = false
    private var policy = HTTPBodyPolicy.none
    private var memory = Data()
    private var file: FileDescriptor?
    private var filePath: String?
    private var received = 0
    private var failure: String?

    init(request: HTTPRequest) { self.request = request }

    func begin(_ policy: HTTPBodyPolicy) {
        self.policy = policy
        guard case .toFile(let directory, _) = policy else { return }
        // Named after this process, so the next start sweeps it away if this one is killed mid-upload.
        let path = FileSystem.temporaryPath(beside: "\(directory)/upload")
        do {
            file = try FileDescriptor(opening: path, .writeOnly, options: [.create, .exclusive, .noFollow], permissions: 0o600)
            filePath = path
        } catch {
            failure = error.description
        }
    }

    func receive(_ bytes: UnsafeRawBufferPointer) {
        received += bytes.count
        guard received <= policy.limit, failure == nil else { return dropBody() }
        if let file {
            do { try file.write(Data(bytes)) } catch { failure = error.description; dropBody() }
        } else {
            memory.append(contentsOf: bytes)
        }
    }

    /// Over the limit or unwritable: nothing of the body is kept.
    private func dropBody() {
        memory = Data()
        file = nil
        if let filePath { FileSystem.remove(filePath) }
        filePath = nil
    }

    /// So much more than the policy takes has arrived that the rest is not worth reading for the
    /// sake of an answer: the connection is closed instead.
    var isFarOverLimit: Bool { received > policy.limit + 16 * 1024 * 1024 }

    func finish() -> HTTPRequest {
        var whole = request
        if received > policy.limit {
            whole.body = .tooLarge(limit: policy.limit)
        } else if let failure {
            whole.body = .unsaved(reason: failure)
        } else if let filePath {
            file = nil
            whole.body = .file(path: filePath, bytes: received)
        } else {
            whole.body = received == 0 ? .empty : .data(memory)
        }
        return whole
    }

    func discard() {
        file = nil
        if let filePath { FileSystem.remove(filePath) }
    }
}
