internal import CQREncode
import Foundation

/// A QR code of a text, such as the pairing address `voicealarm serve` prints for a phone's camera,
/// and its drawing in a terminal. libqrencode does the encoding (the version it picks is the
/// smallest that holds the text, error correction level M: 15 % of the code may be lost).
///
/// ```swift
/// let code = try QRCode(encoding: "https://192.168.1.20:8470/pair?code=ABCD2345")
/// print(code.terminalText())
/// ```
package struct QRCode: Sendable, Equatable {
    /// Modules (squares) a side, without the quiet zone: 21 for version 1, 4 more a version.
    package let size: Int
    /// Row by row, whether each module is dark.
    private let modules: [Bool]

    /// Encodes the UTF-8 bytes of `text` in byte mode, at error correction level M, case kept.
    /// The corresponding C function is `QRcode_encodeString` (freed with `QRcode_free`).
    /// - Throws: `Failure.tooLong` for more bytes than a version 40 code holds at level M (2,331);
    ///   `Failure.containsNUL` for a text with a NUL character (the C call would stop there);
    ///   `Failure.library` with libqrencode's `errno` otherwise (`ENOMEM`).
    package init(encoding text: String) throws(Failure) {
        guard !text.utf8.contains(0) else { throw .containsNUL }
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else {
            let code = errno
            throw code == ERANGE ? .tooLong(bytes: text.utf8.count) : .library(code: code)
        }
        defer { QRcode_free(code) }
        let size = Int(code.pointee.width)
        self.size = size
        // Bit 0 of each byte is the module's colour (1 dark); the others say what the module is for.
        modules = UnsafeBufferPointer(start: code.pointee.data, count: size * size).map { $0 & 1 == 1 }
    }

    /// Whether the module at column `x`, row `y` (from the top left, 0-based) is dark. Outside the
    /// code, in the quiet zone around it, every module is light.
    package func isDark(x: Int, y: Int) -> Bool {
        guard (0..<size).contains(x), (0..<size).contains(y) else { return false }
        return modules[y * size + x]
    }

    /// The character for an upper and a lower module, indexed by upper dark × 2 + lower dark:
    /// light modules are ink.
    private static let halfBlocks = ["█", "▀", "▄", " "]

    /// The code drawn with Unicode half blocks, two module rows a line and one module a character,
    /// surrounded by `quietZone` light modules a side (scanners want 4; 2 is what `qrencode -t UTF8`
    /// uses and what phones read on a screen). Lines are joined by "\n", without a final one.
    ///
    /// The convention is `qrencode -t UTF8`'s, and the output the same as its for an even quiet zone:
    /// light modules are drawn (`█`, `▀`, `▄`) and dark ones left as spaces, so on the usual dark
    /// terminal with light text the code reads dark on light as printed on paper. On a light
    /// terminal it comes out inverted, which many phone scanners read too.
    package func terminalText(quietZone: Int = 2) -> String {
        let margin = max(0, quietZone)
        let end = size + margin
        var lines: [String] = []
        for top in stride(from: -margin, to: end, by: 2) {
            var line = ""
            for x in -margin..<end {
                line += Self.halfBlocks[(isDark(x: x, y: top) ? 2 : 0) + (isDark(x: x, y: top + 1) ? 1 : 0)]
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}

extension QRCode {
    /// Why a text could not be made a QR code, in one lowercase line.
    package enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// More bytes than the largest QR code holds at level M.
        case tooLong(bytes: Int)
        /// A NUL character, which the C interface cannot pass.
        case containsNUL
        /// libqrencode failed with this `errno`.
        case library(code: Int32)

        package var description: String {
            switch self {
            case .tooLong(let bytes): "the text is too long for a QR code (\(bytes) bytes; at most 2,331)"
            case .containsNUL: "the text for a QR code contains a NUL character"
            case .library(let code): "cannot make a QR code: \(String(cString: strerror(code)))"
            }
        }
    }
}
