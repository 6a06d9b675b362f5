import Foundation
import VoiceAlarmFiles
import VoiceAlarmHTTP

/// The certificates `serve` answers with, as files: the library's authority and the server
/// certificate it issued, kept in `<data-dir>/web` (made, loaded, issued again when what the
/// server holds changes), and the person's own `--cert`/`--key`, examined before anything
/// listens. `WebServer` starts with what this gives; `serve pair`, `serve trust` and `service
/// install --web` read the same files.
package enum ServerIdentity {
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
    /// - Throws: `WebServer.Failure.certificate` when the kept authority does not load: it is never
    ///   replaced silently, since phones trust it.
    package static func authority(folder: String, now: Date) throws -> (CertificateAuthority, made: Bool) {
        do { _ = try PrivateFolder.make(folder, links: .ownOnly) } catch { throw WebServer.Failure.folder(path: folder, reason: "\(error)") }
        let (certificatePath, keyPath) = authorityPaths(folder)
        // A key without its certificate is a first start cut short: there was never an authority to trust.
        if FileSystem.kind(of: certificatePath) != .missing {
            let kept: CertificateAuthority
            do { kept = try CertificateAuthority.load(certificatePEM: try read(certificatePath), keyPEM: try read(keyPath)) } catch let failure
                as TLSIdentity.Failure
            {
                throw WebServer.Failure.certificate(failure, path: certificatePath)
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
            throw WebServer.Failure.certificate(error, path: nil)
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
            throw WebServer.Failure.certificateFile(path: certificatePath, reason: SystemError.text(of: error))
        }
    }

    /// The certificate for what `plan` holds, issued by the library's authority: the one kept
    /// from before when the authority issued it, it names exactly what is held, and it is not
    /// near its end; else a new one.
    static func issued(
        for plan: ListenPlan, folder: String, now: Date
    ) throws -> (identity: TLSIdentity, authority: CertificateAuthority, change: WebServer.CertificateChange, uncertified: [String]) {
        let renewing = FileSystem.kind(of: authorityPaths(folder).certificate) != .missing
        let (authority, made) = try authority(folder: folder, now: now)
        let names = plan.names.filter(authority.permits), addresses = plan.addresses.filter(authority.permits)
        let uncertified = (plan.names + plan.addresses).filter { !authority.permits($0) }
        guard !names.isEmpty || !addresses.isEmpty else {
            throw WebServer.Failure.outsideAuthority(held: plan.addresses, permitted: authority.permittedNames + authority.permittedRanges, folder: folder)
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
            throw WebServer.Failure.certificate(error, path: nil)
        }
        try keep(key: identity.keyPEM, at: keyPath, certificate: identity.certificatePEM, at: certificatePath)
        let change: WebServer.CertificateChange =
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
    /// - Throws: `WebServer.Failure.certificateFile`, `WebServer.Failure.keyFileExposed` or `WebServer.Failure.certificate`.
    static func load(certificate: String, key: String, now: Date) throws -> TLSIdentity {
        _ = try status(certificate)
        let keyStatus = try status(key)
        guard keyStatus.permissions & 0o006 == 0 else { throw WebServer.Failure.keyFileExposed(path: key, permissions: keyStatus.permissions) }
        let identity: TLSIdentity
        do { identity = try TLSIdentity.load(certificatePEM: try read(certificate), keyPEM: try read(key)) } catch let failure as TLSIdentity.Failure {
            // A key that does not parse or match is the key file's fault; the rest is the certificate's.
            switch failure {
            case .keyNotPEM, .keyDoesNotMatch: throw WebServer.Failure.certificate(failure, path: key)
            default: throw WebServer.Failure.certificate(failure, path: certificate)
            }
        }
        do { try identity.check(at: now) } catch { throw WebServer.Failure.certificate(error, path: certificate) }
        return identity
    }

    /// The status of a certificate or key file, which must be a regular file (a FIFO would block
    /// the read; a device never ends).
    private static func status(_ path: String) throws -> FileSystem.Status {
        let status: FileSystem.Status
        do { status = try FileSystem.status(of: path) } catch {
            throw WebServer.Failure.certificateFile(path: path, reason: error.code == ENOENT ? "no such file" : error.reason)
        }
        guard status.kind == .regular else { throw WebServer.Failure.certificateFile(path: path, reason: "is \(status.kind), not a PEM file") }
        return status
    }

    /// A certificate or key file's text: at most `identityFileLimit` bytes of UTF-8.
    private static func read(_ path: String) throws -> String {
        _ = try status(path)
        let data: Data
        do { data = try FileDescriptor(opening: path, .readOnly).read(limit: identityFileLimit) } catch {
            throw WebServer.Failure.certificateFile(path: path, reason: error.reason)
        }
        guard data.count <= identityFileLimit else {
            throw WebServer.Failure.certificateFile(path: path, reason: "is over \(identityFileLimit >> 20) MB, not a certificate or key")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw WebServer.Failure.certificateFile(path: path, reason: "is not PEM text (not UTF-8)") }
        return text
    }
}
