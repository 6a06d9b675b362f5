import Foundation

/// A one-time code that pairs one browser, until it expires.
package struct PairingCode: Equatable, Sendable {
    package var code: String
    package var expires: Date

    /// How long a code is good for: long enough to find the phone, short enough to be no standing risk.
    package static let lifetime: TimeInterval = 10 * 60
}
