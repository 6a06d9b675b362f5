import VoiceAlarmHTTP
import VoiceAlarmWeb

/// `--listen`, `--cert` and `--key`: where and how the web page is served (`--https` is still
/// read, and changes nothing: HTTPS is always on, and units written before name it). Declared
/// once for `serve`, `serve pair` and `service install --web`, and read and checked in one place,
/// so the rule that a certificate comes with its key is worded once.
struct ServeOptions {
    static let listen: Option<ListenAddress?> = .reading(
        "listen", value: "ADDR:PORT",
        help: "Where the page listens: localhost and your account's own port by default; 0.0.0.0:PORT for the phones on your network"
    ) { text in
        switch ListenAddress.parse(text) {
        case .success(let address): return address
        case .failure(let failure): throw OptionRefusal(failure.description)
        }
    }
    static let cert: Option<String?> = .text("cert", value: "FILE", kind: .file, help: "Your own certificate (PEM) for HTTPS, with --key")
    static let key: Option<String?> = .text("key", value: "FILE", kind: .file, help: "The certificate's private key (PEM, unencrypted, not readable by others)")
    static let https = Flag("https", help: "Kept for services written before: the page is always HTTPS")
    /// The four, in the order help lists them.
    static let all: [any DeclaredOption] = [listen, cert, key, https]

    /// Nil when not given: localhost on this account's own port.
    var listen: ListenAddress?
    /// Absolute paths, so a service unit finds them from any folder.
    var certificateFile: String?
    var keyFile: String?

    /// Reads the four options of `parsed`.
    /// - Throws: `UsageError` for a `--listen` that is not a numeric address and port, or one of
    ///   `--cert` and `--key` without the other.
    init(_ parsed: ParsedArguments) throws {
        listen = try parsed[Self.listen]
        certificateFile = try parsed[Self.cert].map(LibraryAccess.absolute)
        keyFile = try parsed[Self.key].map(LibraryAccess.absolute)
        if (certificateFile == nil) != (keyFile == nil) {
            throw UsageError(
                "--cert and --key go together: give both, or neither for a certificate made here",
                command: parsed.command, input: certificateFile == nil ? Self.key.spec.dashed : Self.cert.spec.dashed)
        }
    }

    /// The first of the four given on `parsed`: for a command that takes them only with another option.
    static func firstGiven(in parsed: ParsedArguments) -> (any DeclaredOption)? {
        all.first { parsed.given($0) }
    }

    /// The server's options.
    var server: WebServer.Options {
        var options = WebServer.Options()
        options.listen = listen
        options.certificateFile = certificateFile
        options.keyFile = keyFile
        return options
    }
}
