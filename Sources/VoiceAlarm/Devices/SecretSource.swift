/// Where device tokens and pairing codes come from, and how they are kept: random secrets and a
/// one-way digest. The web server's is cryptographic (GnuTLS); tests give fixed ones.
package protocol SecretSource: Sendable {
    /// A new bearer token: unguessable, URL- and header-safe.
    func token() throws -> String
    /// A new one-time pairing code a person can type.
    func code() throws -> String
    /// The digest a token or code is stored as.
    func digest(_ secret: String) -> String
}
