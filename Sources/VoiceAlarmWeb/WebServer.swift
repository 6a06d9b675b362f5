import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmFiles
import VoiceAlarmHTTP

/// `voicealarm serve` put together: the library's upload folder, the HTTPS identity, and the HTTP
/// server with the web application behind it.
///
/// HTTPS on every address, loopback included: the certificate is the person's own (`--cert`,
/// `--key`) or one issued by the library's own authority (`CertificateAuthority`, made on first
/// start and kept with the certificate in `<data-dir>/web`), which the person's browsers and
/// phones trust once. So nobody else on the machine can serve our origin: a program that takes
/// the port while `serve` is down, or an address it does not hold, has no certificate a browser
/// accepts for it. The server holds every address its links, `Host` check and certificate name
/// (`ListenPlan`), and refuses to start, naming the address, when it cannot hold one.
package final class WebServer {
    package struct Options: Sendable {
        /// Where to listen; nil for this account's own port on loopback (`ListenAddress.accountDefault`).
        package var listen: ListenAddress?
        package var certificateFile: String?
        package var keyFile: String?
        package var uploadLimit = 100 * 1024 * 1024
        package init() {}

        /// The address asked for, or this account's default.
        package var address: ListenAddress { listen ?? .accountDefault(uid: getuid()) }
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
        /// The sockets systemd passed are not the ones `--listen` asks for.
        case socketUnit(ListenPlan.Mismatch)
        /// Nothing the server holds is a name or address the library's authority may certify.
        case outsideAuthority(held: [String], permitted: [String], folder: String)

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
            case .socketUnit(let mismatch): "\(mismatch)"
            case .outsideAuthority(let held, let permitted, let folder):
                "this library's authority may not certify \(held.joined(separator: ", ")) (it certifies \(permitted.joined(separator: ", "))): "
                    + "to serve here, remove \(folder)/authority.pem and authority-key.pem so that serve makes a new one, "
                    + "then trust it again on every browser and phone"
            }
        }

        /// The person's files or the machine's ports: not the library's.
        package var failureKind: FailureKind { .environment }
        package var failureInput: String? { input }

        package var input: String? {
            switch self {
            case .certificateFile(let path, _), .keyFileExposed(let path, _), .folder(let path, _), .certificate(_, let path?): path
            case .listening(.notStarted(let address, _)), .listening(.badAddress(let address)): address
            default: nil
            }
        }
    }

    /// What happened to the certificate at this start.
    package enum CertificateChange: Sendable, Equatable {
        /// The one kept from before serves.
        case kept
        /// The person's own serves.
        case own
        /// The library's authority was made now (first start): browsers and phones trust it once.
        case madeAuthority
        /// A new certificate from the authority: the machine's names or addresses changed, or
        /// the old one was near its end.
        case issued
        /// An earlier version's self-signed certificate was replaced by one from the authority:
        /// phones that can verify the new chain keep their pairing.
        case replacedSelfSigned
        /// The authority was within 30 days of its end and was made again: every browser and
        /// phone must trust the new one.
        case renewedAuthority
    }

    /// The HTTP server itself (its port: the kernel's choice for port 0).
    package let http: HTTPServer
    /// What it holds: the sockets, addresses and names.
    package let plan: ListenPlan
    /// `https://192.168.1.20:21000`: where a phone opens the page.
    package let baseURL: String
    /// The SHA-256 fingerprint of the certificate served.
    package let fingerprint: String
    /// The library's authority, nil when the person's own certificate serves.
    package let authority: CertificateAuthority?
    /// What happened to the certificate at this start.
    package let certificateChange: CertificateChange
    /// Names and addresses held that the authority may not certify (the machine moved to a
    /// network it was not made for): left out of the certificate.
    package let uncertified: [String]
    /// When the person's own certificate (`--cert`) ends, if that is within
    /// `TLSIdentity.renewalWindow`: the command line warns of it at every start. Nil for a
    /// certificate made here, which is made again before then.
    package let ownCertificateExpiresSoon: Date?
    /// `<data-dir>/web`: the authority, the certificate it issued, and their keys.
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
        var plan = ListenPlan(options.address, machineAddresses: MachineAddresses.all(), hostName: MachineAddresses.hostName())
        // Started by its socket unit: systemd holds the port (across restarts and upgrades) and passes it.
        let passed = InheritedSockets.take()
        if !passed.isEmpty {
            do { plan = try plan.adopting(passed) } catch { throw Failure.socketUnit(error) }
        }
        self.plan = plan
        let identity: TLSIdentity
        switch (options.certificateFile, options.keyFile) {
        case (let certificate?, let key?):
            identity = try Self.load(certificate: certificate, key: key, now: now())
            (authority, certificateChange, uncertified) = (nil, .own, [])
        case (nil, nil):
            let issued = try Self.issued(for: plan, folder: identityFolder, now: now())
            (identity, authority, certificateChange, uncertified) = (issued.identity, issued.authority, issued.change, issued.uncertified)
        default:
            throw Failure.onlyOneOfCertificateAndKey
        }
        var configuration = WebApplication.Configuration(location: location, https: true, uploadDirectory: uploads, secrets: secrets)
        configuration.uploadLimit = options.uploadLimit
        configuration.now = now
        configuration.hosts = plan.hosts
        configuration.authority = authority.map { WebApplication.AuthorityFile(der: $0.der, fingerprint: $0.fingerprint) }
        application = WebApplication(configuration, log: log)
        do { http = try HTTPServer(listening: plan.sockets, tls: identity, handler: application) } catch { throw Failure.listening(error) }
        application.listening(on: http.port)
        fingerprint = identity.fingerprint
        ownCertificateExpiresSoon = options.certificateFile != nil && identity.expiresSoon(at: now()) ? identity.notAfter : nil
        baseURL = Self.baseURL(host: plan.linkHost, port: http.port)
    }

    /// The link that pairs a browser with `code`: the page's address, the code, and after `#`
    /// (never sent to the server) the fingerprint of the authority to compare on the phone.
    package func pairingURL(_ code: PairingCode) -> String { Self.pairingURL(code, baseURL: baseURL, authority: authority?.fingerprint) }

    /// `https://192.168.1.20:21000/pair?code=K7QZ2MXA9R#authority=AB:12:…`: what the phone opens to pair.
    package static func pairingURL(_ code: PairingCode, baseURL: String, authority: String?) -> String {
        "\(baseURL)/pair?code=\(code.code)" + (authority.map { "#authority=\($0.replacingOccurrences(of: ":", with: ""))" } ?? "")
    }

    /// `https://HOST:PORT`: where a server holding `host` on `port` is opened.
    package static func baseURL(host: String, port: Int) -> String { "https://" + ListenAddress(host: host, port: port).description }

    /// Stops listening and closes every connection.
    package func stop() { http.stop() }

    /// The authority's files in `folder`: `authority.pem` (its certificate, for anyone to trust)
    /// and `authority-key.pem` (0600).
    package static func authorityPaths(_ folder: String) -> (certificate: String, key: String) {
        ("\(folder)/authority.pem", "\(folder)/authority-key.pem")
    }

    /// The library's authority in `folder` as it is, made by nothing: nil when there is none (the
    /// person's own certificate serves, or no server started yet) or it does not load.
    package static func existingAuthority(folder: String) -> CertificateAuthority? {
        let (certificatePath, keyPath) = authorityPaths(folder)
        guard FileSystem.kind(of: certificatePath) == .regular else { return nil }
        return try? CertificateAuthority.load(certificatePEM: read(certificatePath), keyPEM: read(keyPath))
    }

    /// The library's authority in `folder` (made private when it is not), made when there is
    /// none (or when it is near its end).
    /// - Returns: the authority, and whether it was made now.
    /// - Throws: `Failure.certificate` when the kept authority does not load: it is never
    ///   replaced silently, since phones trust it.
    package static func authority(folder: String, now: Date) throws -> (CertificateAuthority, made: Bool) {
        do { _ = try PrivateFolder.make(folder, links: .ownOnly) } catch { throw Failure.folder(path: folder, reason: "\(error)") }
        let (certificatePath, keyPath) = authorityPaths(folder)
        // A key without its certificate is a first start cut short: there was never an authority to trust.
        if FileSystem.kind(of: certificatePath) != .missing {
            let kept: CertificateAuthority
            do { kept = try CertificateAuthority.load(certificatePEM: try read(certificatePath), keyPEM: try read(keyPath)) } catch let failure
                as TLSIdentity.Failure
            {
                throw Failure.certificate(failure, path: certificatePath)
            }
            if kept.notAfter.timeIntervalSince(now) > TLSIdentity.renewalWindow { return (kept, false) }
        }
        let host = MachineAddresses.hostName().lowercased()
        let names = ["localhost"] + (host.isEmpty || host == "localhost" || !host.allSatisfy(\.isASCII) ? [] : [host, "\(host).local"])
        let ranges = ["127.0.0.0/8", "::1/128"] + MachineAddresses.networks()
        let made: CertificateAuthority
        do {
            made = try CertificateAuthority.make(
                commonName: "VoiceAlarm authority of \(host.isEmpty ? "this machine" : host)", dnsNames: names, ranges: ranges, now: now)
        } catch {
            throw Failure.certificate(error, path: nil)
        }
        try keep(key: made.keyPEM, at: keyPath, certificate: made.certificatePEM, at: certificatePath)
        return (made, true)
    }

    /// Writes a key (0600) and then its certificate (0644), each whole or not at all: a crash
    /// leaves the old pair or a new key beside the old certificate, which the next start finds not
    /// matching and replaces.
    private static func keep(key: String, at keyPath: String, certificate: String, at certificatePath: String) throws {
        do {
            try FileSystem.atomicWrite(Data(key.utf8), to: keyPath, permissions: 0o600)
            try FileSystem.atomicWrite(Data(certificate.utf8), to: certificatePath, permissions: 0o644)
        } catch {
            throw Failure.certificateFile(path: certificatePath, reason: SystemError.text(of: error))
        }
    }

    /// The certificate for what `plan` holds, issued by the library's authority: the one kept
    /// from before when the authority issued it, it names exactly what is held, and it is not
    /// near its end; else a new one.
    private static func issued(
        for plan: ListenPlan, folder: String, now: Date
    ) throws -> (identity: TLSIdentity, authority: CertificateAuthority, change: CertificateChange, uncertified: [String]) {
        let renewing = FileSystem.kind(of: authorityPaths(folder).certificate) != .missing
        let (authority, made) = try authority(folder: folder, now: now)
        let names = plan.names.filter(authority.permits), addresses = plan.addresses.filter(authority.permits)
        let uncertified = (plan.names + plan.addresses).filter { !authority.permits($0) }
        guard !names.isEmpty || !addresses.isEmpty else {
            throw Failure.outsideAuthority(held: plan.addresses, permitted: authority.permittedNames + authority.permittedRanges, folder: folder)
        }
        let certificatePath = "\(folder)/certificate.pem", keyPath = "\(folder)/key.pem"
        let kept =
            FileSystem.kind(of: certificatePath) == .regular && FileSystem.kind(of: keyPath) == .regular
            ? try? TLSIdentity.load(certificatePEM: read(certificatePath), keyPEM: read(keyPath)) : nil
        if let kept, authority.issued(kept), !kept.expiresSoon(at: now), Set(kept.dnsNames) == Set(names),
            Set(kept.ipAddresses.map(IPAddressText.canonical)) == Set(addresses.map(IPAddressText.canonical))
        {
            return (kept, authority, made ? (renewing ? .renewedAuthority : .madeAuthority) : .kept, uncertified)
        }
        let host = MachineAddresses.hostName()
        let identity: TLSIdentity
        do { identity = try authority.issue(organization: "VoiceAlarm on \(host)", dnsNames: names, ipAddresses: addresses, now: now) } catch {
            throw Failure.certificate(error, path: nil)
        }
        try keep(key: identity.keyPEM, at: keyPath, certificate: identity.certificatePEM, at: certificatePath)
        let change: CertificateChange =
            made
            ? (renewing ? .renewedAuthority : kept == nil ? .madeAuthority : .replacedSelfSigned)
            : (kept.map(authority.issued) == false ? .replacedSelfSigned : .issued)
        return (identity, authority, change, uncertified)
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
