import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmFiles
import VoiceAlarmHTTP

/// `voicealarm serve` put together: the library's upload folder, the HTTPS identity (the
/// person's own, or one made on first start and kept in `<data-dir>/web`), and the HTTP server
/// with the web application behind it. Plain HTTP only on loopback: beyond it a browser grants
/// the microphone in a secure context alone, and a token must not cross the network in clear.
package final class WebServer {
    package struct Options: Sendable {
        package var listen: ListenAddress = .loopbackDefault
        package var certificateFile: String?
        package var keyFile: String?
        /// Force HTTPS on loopback too.
        package var https = false
        package var uploadLimit = 100 * 1024 * 1024
        package init() {}
    }

    /// Why the server did not start.
    package enum Failure: ClassifiedError, Sendable, CustomStringConvertible {
        case certificateFile(path: String, reason: String)
        /// A key file other accounts may read or change (`permissions`: its mode bits).
        case keyFileExposed(path: String, permissions: Int)
        /// The person's own certificate (at `path`) or the one made here is refused.
        case certificate(TLSIdentity.Failure, path: String?)
        case onlyOneOfCertificateAndKey
        case listening(HTTPServer.Failure)
        case folder(path: String, reason: String)

        package var description: String {
            switch self {
            case .certificateFile(let path, let reason): "\(path): \(reason)"
            case .keyFileExposed(let path, let permissions):
                "\(path): other accounts can read or change this private key (mode \(String(format: "%04o", permissions))): "
                    + "'chmod 600' it (640 to share it with a group), and make a new key if it was ever readable"
            case .certificate(let failure, let path?): "\(path): \(failure)"
            case .certificate(let failure, nil): "\(failure)"
            case .onlyOneOfCertificateAndKey: "a certificate goes with its private key: give both, or neither for a certificate made here"
            case .listening(let failure): "\(failure)"
            case .folder(let path, let reason): "\(path): \(reason)"
            }
        }

        /// The person's files or the machine's ports: not the library's.
        package var failureKind: FailureKind { .environment }
        package var failureInput: String? { input }

        package var input: String? {
            switch self {
            case .certificateFile(let path, _), .keyFileExposed(let path, _), .folder(let path, _), .certificate(_, let path?): path
            default: nil
            }
        }
    }

    /// The HTTP server itself (its port: the kernel's choice for port 0).
    package let http: HTTPServer
    /// `https://192.168.1.20:8470` or `http://127.0.0.1:8470`: where a phone opens the page.
    package let baseURL: String
    /// The SHA-256 fingerprint of the certificate served, for the person to compare with the browser's.
    package let fingerprint: String?
    /// True when the certificate was made by this start (there was none).
    package let madeCertificate: Bool
    /// When the person's own certificate (`--cert`) ends, if that is within
    /// `TLSIdentity.renewalWindow`: the command line warns of it at every start. Nil for a
    /// certificate made here, which is made again before then.
    package let ownCertificateExpiresSoon: Date?
    /// `<data-dir>/web`: the certificate made here and its key.
    package let identityFolder: String
    let application: WebApplication

    package init(
        _ options: Options, location: LibraryLocation, secrets: any SecretSource = WebSecrets(),
        now: @escaping @Sendable () -> Date = Date.init, log: @escaping @Sendable (String) -> Void
    ) throws {
        identityFolder = "\(location.dataDirectory)/web"
        let uploads = "\(location.dataDirectory)/uploads"
        for folder in [identityFolder, uploads] {
            do { _ = try PrivateFolder.make(folder, links: .ownOnly) } catch { throw Failure.folder(path: folder, reason: "\(error)") }
        }
        // Uploads a killed server left half-received: never imported, gone at the next start
        // (another server's on the same library, still arriving, stay: its process is alive).
        FileSystem.removeAbandonedTemporaries(in: uploads)
        let wantsTLS = Self.speaksTLS(options)
        var identity: TLSIdentity?
        var made = false
        if wantsTLS {
            (identity, made) = try Self.identity(options, folder: identityFolder, now: now())
        }
        var configuration = WebApplication.Configuration(location: location, https: identity != nil, uploadDirectory: uploads, secrets: secrets)
        configuration.uploadLimit = options.uploadLimit
        configuration.now = now
        configuration.hosts = Self.hosts(options.listen).union(((identity?.dnsNames ?? []) + (identity?.ipAddresses ?? [])).map { $0.lowercased() })
        application = WebApplication(configuration, log: log)
        do { http = try HTTPServer(listening: options.listen, tls: identity, handler: application) } catch { throw Failure.listening(error) }
        application.listening(on: http.port)
        fingerprint = identity?.fingerprint
        madeCertificate = made
        ownCertificateExpiresSoon = options.certificateFile != nil && identity?.expiresSoon(at: now()) == true ? identity?.notAfter : nil
        baseURL = Self.baseURL(listen: options.listen, port: http.port, tls: identity != nil)
    }

    /// The names a request's `Host` may give: loopback's, the address listened on, and for every
    /// address (`0.0.0.0`, `::`) the machine's addresses and its own names — the names its
    /// certificate holds. No other name reaches the application (DNS rebinding finds nothing).
    static func hosts(_ listen: ListenAddress) -> Set<String> {
        var hosts: Set<String> = ["127.0.0.1", "::1", "localhost", listen.host.lowercased()]
        let host = MachineAddresses.hostName().lowercased()
        if !host.isEmpty { hosts.formUnion([host, "\(host).local"]) }
        if listen.host == "0.0.0.0" || listen.host == "::" { hosts.formUnion(MachineAddresses.all().map { $0.lowercased() }) }
        return hosts
    }

    /// The link that pairs a browser with `code`.
    package func pairingURL(_ code: PairingCode) -> String { Self.pairingURL(code, baseURL: baseURL) }

    /// `https://192.168.1.20:8470/pair?code=K7QZ2MXA9R`: what the phone opens to pair.
    package static func pairingURL(_ code: PairingCode, baseURL: String) -> String { "\(baseURL)/pair?code=\(code.code)" }

    /// Whether a server started with `options` speaks HTTPS: beyond loopback always, on loopback
    /// when asked or given a certificate.
    package static func speaksTLS(_ options: Options) -> Bool {
        options.https || !options.listen.isLoopback || options.certificateFile != nil || options.keyFile != nil
    }

    /// `http(s)://HOST:PORT`, HOST the address a phone reaches for `listen` (the machine's first
    /// address when it listens on all of them): where a server on `listen` and `port` is opened.
    package static func baseURL(listen: ListenAddress, port: Int, tls: Bool) -> String {
        (tls ? "https://" : "http://") + ListenAddress(host: MachineAddresses.reachable(for: listen), port: port).description
    }

    /// Stops listening and closes every connection.
    package func stop() { http.stop() }

    /// The person's own certificate, the one made here before, or a new one for every name and
    /// address this machine answers to.
    private static func identity(_ options: Options, folder: String, now: Date) throws -> (TLSIdentity, Bool) {
        switch (options.certificateFile, options.keyFile) {
        case (let certificate?, let key?):
            return (try load(certificate: certificate, key: key, now: now), false)
        case (nil, nil): break
        default: throw Failure.onlyOneOfCertificateAndKey
        }
        let certificatePath = "\(folder)/certificate.pem", keyPath = "\(folder)/key.pem"
        if FileSystem.kind(of: certificatePath) == .regular, FileSystem.kind(of: keyPath) == .regular,
            let kept = try? load(certificate: certificatePath, key: keyPath, now: now), !kept.expiresSoon(at: now)
        {
            return (kept, false)
        }
        let host = MachineAddresses.hostName()
        var addresses = MachineAddresses.all()
        if options.listen.host != "0.0.0.0", options.listen.host != "::", !addresses.contains(options.listen.host) { addresses.append(options.listen.host) }
        let names = Array(Set([host, "\(host).local", "localhost"].filter { !$0.isEmpty && $0.allSatisfy { $0.isASCII } })).sorted()
        let made: TLSIdentity
        do { made = try TLSIdentity.selfSigned(commonName: "VoiceAlarm on \(host)", dnsNames: names, ipAddresses: addresses, now: now) } catch {
            throw Failure.certificate(error, path: nil)
        }
        do {
            try FileSystem.atomicWrite(Data(made.keyPEM.utf8), to: keyPath, permissions: 0o600)
            try FileSystem.atomicWrite(Data(made.certificatePEM.utf8), to: certificatePath, permissions: 0o644)
        } catch {
            throw Failure.certificateFile(path: certificatePath, reason: SystemError.text(of: error))
        }
        return (made, true)
    }

    /// Reads the person's own certificate and key as the server would on start, so a service
    /// is not installed with a pair it would refuse.
    /// - Returns: the certificate's notAfter when it ends within `TLSIdentity.renewalWindow`.
    /// - Throws: what `init` throws for the same pair.
    @discardableResult
    package static func checkIdentity(certificateFile: String, keyFile: String, now: Date) throws -> Date? {
        let identity = try load(certificate: certificateFile, key: keyFile, now: now)
        return identity.expiresSoon(at: now) ? identity.notAfter : nil
    }

    /// The largest certificate or key file read: a chain of a few certificates is a few KB.
    static let identityFileLimit = 1 << 20

    /// Loads a certificate and key from files and refuses what a browser would refuse at `now`:
    /// a certificate not yet or no longer valid, or a key weaker than RSA-2048 / P-256. A key file
    /// other accounts can read is refused before it is read: they may have copied it already,
    /// and a copy lets them pose as this page on the network.
    /// - Throws: `Failure.certificateFile`, `Failure.keyFileExposed` or `Failure.certificate`.
    private static func load(certificate: String, key: String, now: Date) throws -> TLSIdentity {
        _ = try status(certificate)
        let keyStatus = try status(key)
        guard keyStatus.permissions & 0o006 == 0 else { throw Failure.keyFileExposed(path: key, permissions: keyStatus.permissions) }
        let identity: TLSIdentity
        do { identity = try TLSIdentity.load(certificatePEM: try read(certificate), keyPEM: try read(key)) } catch let failure as TLSIdentity.Failure {
            // A key that does not parse or match is the key file's fault; the rest is the certificate's.
            switch failure {
            case .keyNotPEM, .keyDoesNotMatch: throw Failure.certificate(failure, path: key)
            default: throw Failure.certificate(failure, path: certificate)
            }
        }
        do { try identity.check(at: now) } catch { throw Failure.certificate(error, path: certificate) }
        return identity
    }

    /// The status of a certificate or key file, which must be a regular file (a FIFO would block
    /// the read; a device never ends).
    private static func status(_ path: String) throws -> FileSystem.Status {
        let status: FileSystem.Status
        do { status = try FileSystem.status(of: path) } catch {
            throw Failure.certificateFile(path: path, reason: error.code == ENOENT ? "no such file" : error.reason)
        }
        guard status.kind == .regular else { throw Failure.certificateFile(path: path, reason: "is \(status.kind), not a PEM file") }
        return status
    }

    /// A certificate or key file's text: at most `identityFileLimit` bytes of UTF-8.
    private static func read(_ path: String) throws -> String {
        _ = try status(path)
        let data: Data
        do { data = try FileDescriptor(opening: path, .readOnly).read(limit: identityFileLimit) } catch {
            throw Failure.certificateFile(path: path, reason: error.reason)
        }
        guard data.count <= identityFileLimit else {
            throw Failure.certificateFile(path: path, reason: "is over \(identityFileLimit >> 20) MB, not a certificate or key")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw Failure.certificateFile(path: path, reason: "is not PEM text (not UTF-8)") }
        return text
    }
}
