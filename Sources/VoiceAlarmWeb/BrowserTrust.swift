import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles
import VoiceAlarmHTTP

/// `voicealarm serve trust`: the library's certificate authority added to (or removed from) the
/// certificate databases this account's browsers read, as mkcert does: the NSS database Chromium
/// and Chrome read on Linux (`~/.pki/nssdb`, made when missing) and every Firefox profile's
/// (`cert9.db`). Debian's `certutil` (libnss3-tools) writes them; nothing here parses them.
///
/// The authority is trusted for web sites only (`C,,`), and its name constraints limit it to
/// this machine's names and addresses, so trusting it lets nobody speak for another site.
///
/// ```swift
/// let trust = BrowserTrust(home: NSHomeDirectory())
/// let added = try trust.add(authority, file: "/home/ana/.local/share/voicealarm/web/authority.pem")
/// ```
package struct BrowserTrust: Sendable {
    /// A certificate database of this account's browsers.
    package struct Store: Sendable, Equatable {
        /// Who reads it: "Chromium and Chrome", "Firefox (profile default-release)".
        package var browsers: String
        /// The database's folder, as `certutil -d sql:FOLDER` names it.
        package var folder: String
    }

    /// Why the authority could not be added or removed.
    package enum Failure: ClassifiedError, Equatable, Sendable, CustomStringConvertible {
        /// `certutil` is not installed.
        case noCertutil
        /// `certutil` refused: its words.
        case certutil(folder: String, output: String)

        package var description: String {
            switch self {
            case .noCertutil: "certutil: not installed (Debian's libnss3-tools: 'sudo apt install libnss3-tools')"
            case .certutil(let folder, let output): "\(folder): certutil failed: \(output)"
            }
        }

        package var failureKind: FailureKind { .environment }
        package var failureInput: String? {
            switch self {
            case .noCertutil: "certutil"
            case .certutil(let folder, _): folder
            }
        }
    }

    /// The home folder whose browsers are meant.
    let home: String
    /// Runs `certutil ARGUMENTS`: its status and output (a test may give another).
    let run: @Sendable ([String]) -> (status: Int32, output: String)?

    package init(home: String, certutil: @escaping @Sendable ([String]) -> (status: Int32, output: String)? = BrowserTrust.certutil) {
        self.home = home
        run = certutil
    }

    /// The name the authority goes by in a database: the same for the same authority, so adding
    /// it again replaces it, and removing finds it.
    package static func nickname(_ authority: CertificateAuthority) -> String {
        "VoiceAlarm authority \(authority.fingerprint.replacingOccurrences(of: ":", with: "").prefix(16))"
    }

    /// The databases this account's browsers read: Chromium's (whether or not it exists yet) and
    /// each Firefox profile's that has one.
    package func stores() -> [Store] {
        var found = [Store(browsers: "Chromium and Chrome", folder: "\(home)/.pki/nssdb")]
        for root in ["\(home)/.mozilla/firefox", "\(home)/snap/firefox/common/.mozilla/firefox"] {
            let profiles = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
            for profile in profiles.sorted() where FileSystem.kind(of: "\(root)/\(profile)/cert9.db") == .regular {
                let name = profile.split(separator: ".", maxSplits: 1).last.map(String.init) ?? profile
                found.append(Store(browsers: "Firefox (profile \(name))", folder: "\(root)/\(profile)"))
            }
        }
        return found
    }

    /// Adds the authority in `file` to every store, trusted for web sites; Chromium's database
    /// is made (without a password) when it does not exist.
    /// - Returns: the stores it is in now.
    /// - Throws: `Failure` when certutil is missing or refuses.
    package func add(_ authority: CertificateAuthority, file: String) throws -> [Store] {
        let stores = stores()
        for store in stores {
            if FileSystem.kind(of: "\(store.folder)/cert9.db") != .regular {
                try FileManager.default.createDirectory(atPath: store.folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                try certutil(["-N", "-d", "sql:\(store.folder)", "--empty-password"], in: store)
            }
            try certutil(["-A", "-d", "sql:\(store.folder)", "-n", Self.nickname(authority), "-t", "C,,", "-i", file], in: store)
        }
        return stores
    }

    /// Removes the authority from every store that holds it.
    /// - Returns: the stores it was removed from.
    /// - Throws: `Failure` when certutil is missing or refuses.
    package func remove(_ authority: CertificateAuthority) throws -> [Store] {
        var removed: [Store] = []
        for store in stores() where FileSystem.kind(of: "\(store.folder)/cert9.db") == .regular {
            guard let listed = run(["-L", "-d", "sql:\(store.folder)", "-n", Self.nickname(authority)]) else { throw Failure.noCertutil }
            guard listed.status == 0 else { continue }  // not there
            try certutil(["-D", "-d", "sql:\(store.folder)", "-n", Self.nickname(authority)], in: store)
            removed.append(store)
        }
        return removed
    }

    private func certutil(_ arguments: [String], in store: Store) throws {
        guard let result = run(arguments) else { throw Failure.noCertutil }
        guard result.status == 0 else {
            let line = result.output.split(separator: "\n").last.map(String.init) ?? "exit status \(result.status)"
            throw Failure.certutil(folder: store.folder, output: line)
        }
    }

    /// The real `certutil`, found on `PATH`; nil when it is not installed.
    package static let certutil: @Sendable ([String]) -> (status: Int32, output: String)? = { arguments in
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/certutil" }
        guard let path = paths.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
