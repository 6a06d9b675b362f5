import Foundation
import Synchronization
import TestSupport
import Testing

/// A real `voicealarm serve --json` on a free port, read until it says where it listens.
final class ServeProcess: @unchecked Sendable {
    let process = Process()
    let dataDir: String
    private let output = Collected()
    private let errors = Collected()
    /// `{"url", "pairing": {"code", "link", "expires"}, "fingerprint"}`.
    private(set) var document: [String: Any] = [:]

    var url: String { document["url"] as? String ?? "" }
    var code: String { (document["pairing"] as? [String: Any])?["code"] as? String ?? "" }
    var link: String { (document["pairing"] as? [String: Any])?["link"] as? String ?? "" }
    var fingerprint: String? { document["fingerprint"] as? String }
    /// The library's authority's fingerprint; nil with the person's own certificate.
    var authority: String? { document["authority"] as? String }
    /// The authority's certificate: what a client verifies this server against (never `-k`).
    var authorityFile: String { "\(dataDir)/web/authority.pem" }
    /// The port it listens on.
    var port: Int { Int(url.split(separator: ":").last ?? "") ?? 0 }
    var stderr: String { errors.data.withLock { String(decoding: $0, as: UTF8.self) } }

    init(dataDir: String, arguments: [String] = ["--listen", "127.0.0.1:0"], environment: [String: String]? = nil) async throws {
        self.dataDir = dataDir
        process.executableURL = URL(fileURLWithPath: ProjectPaths.binary)
        process.arguments = ["--data-dir", dataDir, "--json", "serve"] + arguments
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        out.fileHandleForReading.readabilityHandler = { [output] handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil } else { output.data.withLock { $0.append(data) } }
        }
        err.fileHandleForReading.readabilityHandler = { [errors] handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil } else { errors.data.withLock { $0.append(data) } }
        }
        try process.run()
        for _ in 0..<300 {
            if let parsed = output.data.withLock({ try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }) {
                document = parsed
                return
            }
            if !process.isRunning { break }
            await pause(0.05)
        }
        throw TestSupportError("serve did not say where it listens: \(stderr)")
    }

    /// Whether its log says `line` (a whole line) `times` times within ten seconds: the log is
    /// read from a pipe, so a request's line can come a moment after its answer.
    func logged(_ line: String, times: Int = 1) async -> Bool {
        await eventually(within: 10) { stderr.components(separatedBy: line + "\n").count - 1 >= times }
    }

    /// Whether its stderr says `words` within ten seconds (what it says for a person comes after
    /// the JSON on stdout, from another pipe).
    func said(_ words: String) async -> Bool {
        await eventually(within: 10) { stderr.contains(words) }
    }

    /// SIGTERM, and its exit status.
    func stop() async -> Int32 {
        if process.isRunning { process.terminate() }
        return await process.ended()
    }

    /// SIGKILL: gone at once, mid-request.
    func kill() async {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        _ = await process.ended()
    }

    deinit { if process.isRunning { process.terminate() } }

    /// `curl` against this server: the status, headers and body. `arguments` come before the URL.
    /// The certificate is verified against the library's authority (`cacert`: another file).
    func curl(_ method: String, _ path: String, _ arguments: [String] = [], origin: Bool = true, cacert: String? = nil) async throws -> CurlResult {
        var all = ["-s", "-S", "-X", method, "-D", "-", "--max-time", "60", "--cacert", cacert ?? authorityFile]
        if origin { all += ["-H", "Origin: \(url)"] }
        let result = try await ProcessRunner.run("/usr/bin/curl", all + arguments + [url + path])
        return CurlResult(result.stdout, status: result.status, stderr: result.stderr)
    }
}

/// Bytes a pipe's handler appends while a test reads them.
private final class Collected: Sendable {
    let data = Mutex(Data())
}

/// What curl printed: `-D -` headers, then the body.
struct CurlResult {
    var status = 0
    var headers: [String: String] = [:]
    var body = ""
    var exitStatus: Int32
    var stderr: String

    init(_ text: String, status exitStatus: Int32, stderr: String) {
        self.exitStatus = exitStatus
        self.stderr = stderr
        var parts = text.components(separatedBy: "\r\n\r\n")
        // `Expect: 100-continue` (curl's, for a large body): the interim answer comes first.
        while parts.count > 1, parts[0].hasPrefix("HTTP/1.1 100") { parts.removeFirst() }
        let head = parts.first ?? ""
        body = parts.dropFirst().joined(separator: "\r\n\r\n")
        for line in head.components(separatedBy: "\r\n") {
            if line.hasPrefix("HTTP/") { status = Int(line.split(separator: " ")[1]) ?? 0; continue }
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
    }

    var json: Any? { try? JSONSerialization.jsonObject(with: Data(body.utf8)) }

}
