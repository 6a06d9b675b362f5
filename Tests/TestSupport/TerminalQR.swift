import Foundation

/// A QR code drawn in a terminal with half blocks, read back by an independent scanner
/// (zbar's `zbarimg`): what a phone's camera would see.
public enum TerminalQR {
    /// The module matrix a terminal drawing shows, read back from its half blocks under
    /// `qrencode -t UTF8`'s convention (ink is light): true for dark, two rows a line.
    public static func modules(inDrawing text: String) throws -> [[Bool]] {
        var rows: [[Bool]] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var upper: [Bool] = [], lower: [Bool] = []
            for character in line {
                switch character {
                case "█": upper.append(false); lower.append(false)
                case "▀": upper.append(false); lower.append(true)
                case "▄": upper.append(true); lower.append(false)
                case " ": upper.append(true); lower.append(true)
                default: throw TestSupportError("not a half block: \(character)")
                }
            }
            rows += [upper, lower]
        }
        return rows
    }

    /// A plain PBM (P1) of `modules`, each module `scale`×`scale` pixels, with `border` more light
    /// modules around (PBM's 1 is black).
    public static func pbm(_ modules: [[Bool]], scale: Int = 4, border: Int = 4) -> String {
        let width = (modules.first?.count ?? 0) + 2 * border, height = modules.count + 2 * border
        var lines = ["P1", "\(width * scale) \(height * scale)"]
        for y in 0..<height {
            var row = ""
            for x in 0..<width {
                let my = y - border, mx = x - border
                let dark = modules.indices.contains(my) && modules[my].indices.contains(mx) && modules[my][mx]
                row += String(repeating: dark ? "1 " : "0 ", count: scale)
            }
            lines += Array(repeating: row, count: scale)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The text `zbarimg` reads from `drawing`, drawn as a picture.
    public static func scan(_ drawing: String) async throws -> String {
        let folder = TemporaryDirectory("qr")
        let image = folder.file("code.pbm")
        try pbm(try modules(inDrawing: drawing)).write(toFile: image, atomically: true, encoding: .ascii)
        let result = try await ProcessRunner.run("/usr/bin/zbarimg", ["--raw", "-q", image])
        guard result.status == 0 else { throw TestSupportError("zbarimg read no code: \(result.stderr)") }
        return String(result.stdout.dropLast(result.stdout.hasSuffix("\n") ? 1 : 0))
    }
}
