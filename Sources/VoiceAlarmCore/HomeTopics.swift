import Foundation

/// The MQTT topics the Home Assistant bridge uses: state and commands under a topic base
/// (`voicealarm/bedside/…`), discovery configs under Home Assistant's discovery prefix
/// (`homeassistant/switch/voicealarm_bedside/<uuid>_on/config`). An alarm is named by its id in
/// every topic, never by its label: a label is text anyone types and may hold `/`, `+` or `#`.
package struct HomeTopics: Equatable, Sendable {
    /// State and command topics start with this (`voicealarm/<node>` unless given).
    package let base: String
    /// Home Assistant's discovery prefix (`homeassistant` unless given).
    package let discoveryPrefix: String
    /// This machine in discovery topics and ids: `[a-z0-9_]` only.
    package let node: String

    /// Why a topic base or discovery prefix cannot be used.
    package enum Refusal: ClassifiedError, Equatable, Sendable, CustomStringConvertible {
        case invalid(option: String, value: String, reason: String)
        package var failureKind: FailureKind { .malformed }
        package var failureInput: String? {
            if case .invalid(let option, _, _) = self { option } else { nil }
        }
        package var description: String {
            switch self {
            case .invalid(let option, let value, let reason): "\(option): '\(value)' \(reason)"
            }
        }
    }

    /// The topics of a bridge for the machine called `host`.
    /// - Throws: `Refusal` for a base or prefix that is empty, longer than 100 bytes, holds a
    ///   wildcard (`+`, `#`), a NUL or a control character, or starts or ends with `/`.
    package init(host: String, base: String? = nil, discoveryPrefix: String? = nil) throws(Refusal) {
        node = Self.node(of: host)
        self.base = try Self.checked(base ?? "voicealarm/\(node)", option: "--topic-base")
        self.discoveryPrefix = try Self.checked(discoveryPrefix ?? "homeassistant", option: "--discovery-prefix")
    }

    /// `host` as discovery allows it: lower case, anything but letters and digits an underscore.
    package static func node(of host: String) -> String {
        let short = host.split(separator: ".").first.map(String.init) ?? host
        let mapped = String(short.lowercased().unicodeScalars.map { $0.isASCII && CharacterSet.alphanumerics.contains($0) ? Character($0) : "_" })
        return mapped.isEmpty ? "machine" : String(mapped.prefix(40))
    }

    private static func checked(_ text: String, option: String) throws(Refusal) -> String {
        let reason: String? =
            if text.isEmpty { "is empty" } else if text.utf8.count > 100 { "is longer than 100 bytes" } else if text.contains(where: { $0 == "+" || $0 == "#" })
            {
                "holds a wildcard (+ or #)"
            } else if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                "holds a control character"
            } else if text.hasPrefix("/") || text.hasSuffix("/") || text.contains("//") { "starts or ends with '/', or has an empty level" } else { nil }
        if let reason { throw .invalid(option: option, value: text, reason: reason) }
        return text
    }

    /// Online/offline, retained; the last will says offline.
    package var availability: String { "\(base)/availability" }
    /// Home Assistant's birth and will (`online`/`offline`).
    package var homeAssistantStatus: String { "\(discoveryPrefix)/status" }
    /// Every command topic: `<base>/…/set` and `<base>/…/press`.
    package var commandFilters: [String] { ["\(base)/+/press", "\(base)/alarm/+/+/set", "\(base)/alarm/+/+/press"] }

    /// A topic of the machine's: `<base>/<part>`.
    package func machine(_ part: String) -> String { "\(base)/\(part)" }
    /// A topic of one alarm's: `<base>/alarm/<uuid>/<part>`.
    package func alarm(_ id: UUID, _ part: String) -> String { "\(base)/alarm/\(id.uuidString.lowercased())/\(part)" }
    /// A discovery config topic.
    package func config(_ component: String, _ object: String) -> String { "\(discoveryPrefix)/\(component)/voicealarm_\(node)/\(object)/config" }
}
