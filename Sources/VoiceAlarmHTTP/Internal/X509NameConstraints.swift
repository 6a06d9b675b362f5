internal import CGnuTLS
import Foundation

/// A `gnutls_x509_name_constraints_t`: the names and address ranges an authority may certify
/// (RFC 5280's name constraints), deinitialized when the last reference goes away. Not
/// `Sendable`: it lives inside the one call that makes or reads an authority.
final class X509NameConstraints {
    let handle: gnutls_x509_name_constraints_t

    /// Empty constraints. The corresponding C function is `gnutls_x509_name_constraints_init`.
    init() throws(GnuTLSError) {
        var handle: gnutls_x509_name_constraints_t?
        try GnuTLSError.check("gnutls_x509_name_constraints_init") { gnutls_x509_name_constraints_init(&handle) }
        guard let handle else { throw GnuTLSError(operation: "gnutls_x509_name_constraints_init", code: GNUTLS_E_MEMORY_ERROR) }
        self.handle = handle
    }

    deinit { gnutls_x509_name_constraints_deinit(handle) }

    /// The constraints a certificate carries. The corresponding C function is
    /// `gnutls_x509_crt_get_name_constraints`.
    static func of(_ certificate: X509Certificate) throws(GnuTLSError) -> X509NameConstraints {
        let constraints = try X509NameConstraints()
        var critical: UInt32 = 0
        try GnuTLSError.check("gnutls_x509_crt_get_name_constraints") {
            gnutls_x509_crt_get_name_constraints(certificate.handle, constraints.handle, 0, &critical)
        }
        return constraints
    }

    /// Permits `name` and every name below it. The corresponding C function is
    /// `gnutls_x509_name_constraints_add_permitted`.
    func permit(dnsName name: String) throws(GnuTLSError) {
        try GnuTLSError.check("gnutls_x509_name_constraints_add_permitted") {
            Datum.with(name) { gnutls_x509_name_constraints_add_permitted(handle, GNUTLS_SAN_DNSNAME, $0) }
        }
    }

    /// Permits the addresses of `cidr` (`192.168.0.0/16`, `fc00::/7`). The corresponding C
    /// functions are `gnutls_x509_cidr_to_rfc5280` and `gnutls_x509_name_constraints_add_permitted`.
    func permit(range cidr: String) throws(GnuTLSError) {
        var datum = gnutls_datum_t(data: nil, size: 0)
        try GnuTLSError.check("gnutls_x509_cidr_to_rfc5280") { gnutls_x509_cidr_to_rfc5280(cidr, &datum) }
        defer { cgnutls_free(datum.data) }
        try GnuTLSError.check("gnutls_x509_name_constraints_add_permitted") {
            gnutls_x509_name_constraints_add_permitted(handle, GNUTLS_SAN_IPADDRESS, &datum)
        }
    }

    /// Puts them into `certificate`, marked critical (a client that cannot read them must refuse
    /// the certificate, not ignore them). The corresponding C function is
    /// `gnutls_x509_crt_set_name_constraints`.
    func apply(to certificate: X509Certificate) throws(GnuTLSError) {
        try GnuTLSError.check("gnutls_x509_crt_set_name_constraints") { gnutls_x509_crt_set_name_constraints(certificate.handle, handle, 1) }
    }

    /// The permitted DNS names and address ranges (`10.0.0.0/8`), in order. The corresponding C
    /// function is `gnutls_x509_name_constraints_get_permitted`.
    func permitted() -> (dnsNames: [String], ranges: [String]) {
        var names: [String] = [], ranges: [String] = []
        var index: UInt32 = 0
        while true {
            var type: UInt32 = 0
            var datum = gnutls_datum_t(data: nil, size: 0)
            guard gnutls_x509_name_constraints_get_permitted(handle, index, &type, &datum) >= 0 else { break }
            let bytes = datum.data.map { Array(UnsafeBufferPointer(start: $0, count: Int(datum.size))) } ?? []
            switch type {
            case GNUTLS_SAN_DNSNAME.rawValue: names.append(String(decoding: bytes, as: UTF8.self))
            case GNUTLS_SAN_IPADDRESS.rawValue: if let range = Self.rangeText(bytes) { ranges.append(range) }
            default: break
            }
            index += 1
        }
        return (names, ranges)
    }

    /// Whether a DNS name, or an address of 4 or 16 bytes, is one these constraints permit. The
    /// corresponding C function is `gnutls_x509_name_constraints_check`.
    func permits(dnsName name: String) -> Bool {
        Datum.with(name) { gnutls_x509_name_constraints_check(handle, GNUTLS_SAN_DNSNAME, $0) } != 0
    }

    func permits(address bytes: [UInt8]) -> Bool {
        Datum.with(bytes: Data(bytes)) { gnutls_x509_name_constraints_check(handle, GNUTLS_SAN_IPADDRESS, $0) } != 0
    }

    /// An address and mask (8 or 32 bytes, as RFC 5280 keeps a range) as `ADDRESS/PREFIX`.
    private static func rangeText(_ bytes: [UInt8]) -> String? {
        guard bytes.count == 8 || bytes.count == 32 else { return nil }
        let half = bytes.count / 2
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(half == 4 ? AF_INET : AF_INET6, Array(bytes.prefix(half)), &text, socklen_t(text.count)) != nil else { return nil }
        let prefix = bytes.suffix(half).reduce(0) { $0 + $1.nonzeroBitCount }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/\(prefix)"
    }
}
