import Foundation
import TestSupport
import Testing

@Suite("Nothing will ring, said on the phone, with the one thing it can do: start the installed alarm service", .timeLimit(.minutes(1)))
struct WebServiceStartTests {
    @Test("A daemon service that stopped is offered to start; the page starts it through the user manager; then it is offered no more")
    func startFromThePage() async throws {
        let manager = try FakeUserManager()
        let data = manager.dir.file("data")
        func run(_ arguments: [String]) async throws -> ProcessResult {
            try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", data] + arguments, environment: manager.environment)
        }
        _ = try await run(["clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav", "-q"])
        _ = try await run(["alarm", "add", "manifesto", "--at", "06:00", "--days", "mon", "-q"])
        let install = try await run(["service", "install"])
        #expect(install.status == 0, "\(install.stderr)")
        let unit = try #require(install.stdout.split(separator: "\n").first.map { URL(fileURLWithPath: String($0)).lastPathComponent })
        manager.crash(unit)
        let token = try await run(["token", "create", "phone"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try await ServeProcess(dataDir: data, arguments: ["--listen", "127.0.0.1:0", "--no-pairing"], environment: manager.environment)
        let bearer = ["-H", "Authorization: Bearer \(token)"]
        func noDaemon() async throws -> [String: Any]? {
            let status = try await server.curl("GET", "/api/status", bearer)
            let health = (try JSONSerialization.jsonObject(with: Data(status.body.utf8)) as? [String: Any])?["health"] as? [[String: Any]]
            return health?.first { $0["code"] as? String == "noDaemon" }
        }
        #expect(try await noDaemon()?["action"] as? String == "startService", "the page may start what is installed and stopped")
        let started = try await server.curl("POST", "/api/service/start", bearer)
        #expect(started.status == 200, "\(started.body)")
        #expect(manager.log.contains("--user start \(unit)"), "\(manager.log)")
        #expect(try await noDaemon()?["action"] is NSNull, "running now: nothing more to start from the page")
        _ = await server.stop()
    }
}
