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
    /// Where it runs, for `serve pair` (`<data-dir>/web/serving.json`), while it runs.
    private let record: ServingRecord

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
            identity = try ServerIdentity.load(certificate: certificate, key: key, now: now())
            (authority, certificateChange, uncertified) = (nil, .own, [])
        case (nil, nil):
            let issued = try ServerIdentity.issued(for: plan, folder: identityFolder, now: now())
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
        record = ServingRecord(url: baseURL, loopbackOnly: plan.isLoopbackOnly)
        record.write(folder: identityFolder)
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

    /// Stops listening and closes every connection; the page's waits for a change end first.
    package func stop() {
        application.stop()
        http.stop()
        record.remove(folder: identityFolder)
    }
}
