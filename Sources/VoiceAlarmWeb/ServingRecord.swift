import Foundation
import VoiceAlarmFiles

/// Where the server of a library runs now, for `serve pair` to print a link that opens it:
/// `<data-dir>/web/serving.json`, written once it listens and removed when it stops. A record
/// whose process is gone (a server killed) is not taken.
///
/// ```swift
/// ServingRecord.running(folder: "\(dataDir)/web")?.url    // "https://192.168.1.20:21000"
/// ```
package struct ServingRecord: Codable, Equatable, Sendable {
    /// The server's process.
    package var pid: Int32
    /// Where the page is opened: scheme, the address a link names, and the port.
    package var url: String
    /// Whether only this machine can reach it (it holds loopback addresses only).
    package var loopbackOnly: Bool

    static let fileName = "serving.json"

    package init(pid: Int32 = getpid(), url: String, loopbackOnly: Bool) {
        self.pid = pid
        self.url = url
        self.loopbackOnly = loopbackOnly
    }

    /// Writes it into `folder` (0600). A record that cannot be written only costs `serve pair`
    /// its guess: it then names the address given to it.
    func write(folder: String) {
        guard let data = try? JSONEncoder().encode(self) else { return }
        try? FileSystem.atomicWrite(data, to: "\(folder)/\(Self.fileName)", permissions: 0o600, durable: false)
    }

    /// Removes this server's record (not another's that replaced it).
    func remove(folder: String) {
        if Self.read(folder: folder)?.pid == pid { FileSystem.remove("\(folder)/\(Self.fileName)") }
    }

    /// The record of the server running now for the library whose `web` folder is `folder`, or
    /// nil when none runs (no record, or its process is no `voicealarm serve`).
    package static func running(folder: String) -> ServingRecord? {
        guard let record = read(folder: folder), let command = FileSystem.contents("/proc/\(record.pid)/cmdline") else { return nil }
        let words = command.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        return words.first?.hasSuffix("voicealarm") == true && words.contains("serve") ? record : nil
    }

    private static func read(folder: String) -> ServingRecord? {
        FileSystem.contents("\(folder)/\(fileName)").flatMap { try? JSONDecoder().decode(ServingRecord.self, from: $0) }
    }
}
