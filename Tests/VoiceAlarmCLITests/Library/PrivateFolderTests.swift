import Foundation
import TestSupport
import Testing

@Suite("The data dir, clips/ and the sounds dir are private")
struct PrivateFolderTests {
    @Test("Existing folders of ours with a loose mode are tightened to 0700", arguments: [0o777, 0o755])
    func tightened(_ mode: Int) async throws {
        let dir = TemporaryDirectory("private")
        let data = dir.file("data"), sounds = dir.file("my-sounds")
        for folder in [data, "\(data)/clips", sounds] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            chmod(folder, mode_t(mode))
        }
        let result = try await voicealarm(["--data-dir", data, "--sounds-dir", sounds, "clip", "list"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(String(format: "Made %@ private: it was open to other users (mode %04o)", sounds, mode)),
            "a folder the person chose is never changed silently: \(result.stderr)")
        for folder in [data, "\(data)/clips", sounds] {
            #expect(try permissions(folder) == 0o700, "\(folder)")
        }
    }

    @Test("A brand-new library gets 0700 folders")
    func fresh() async throws {
        let dir = TemporaryDirectory("private")
        let data = dir.file("data")
        #expect(try await voicealarm(["--data-dir", data, "clip", "list"]).status == 0)
        for folder in [data, "\(data)/clips", "\(data)/Sounds"] { #expect(try permissions(folder) == 0o700) }
    }

    @Test("A loose folder that belongs to another user is refused with the reason, and left as it is")
    func notOurs() async throws {
        let dir = TemporaryDirectory("private")
        let data = dir.file("data")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        chmod(data, 0o777)
        #expect(chown(data, 65534, 65534) == 0)  // nobody
        let result = try await voicealarm(["--data-dir", data, "clip", "list"])
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(
            result.stderr.hasPrefix("error: \(data): is open to other users (mode 0777) and belongs to user ")
                && result.stderr.contains("(65534), not to you"), "\(result.stderr)")
        #expect(try permissions(data) == 0o777)
    }

    private func permissions(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }
}
