import Foundation
import VoiceAlarmFiles

/// The home-screen icon as PNG, drawn here from the shapes of `Page/icon.svg` (an alarm clock,
/// white on the page's blue), at the sizes the manifest and iOS ask for. Drawn once per size and
/// kept; nothing is downloaded and no image library is needed. Each pixel is covered by the
/// shapes' signed distances (anti-aliased over one pixel), and the result is an indexed PNG of the
/// 256 mixes of blue and white, stored without compression (a few hundred KB at most, asked for
/// once by a browser installing the page).
///
/// ```swift
/// let png = PageIcon.png(size: 192)   // the bytes of a 192 × 192 PNG
/// ```
enum PageIcon {
    /// The background (`#1d4fb8`) and the drawing's colour (white).
    static let background: (UInt8, UInt8, UInt8) = (0x1d, 0x4f, 0xb8)
    static let foreground: (UInt8, UInt8, UInt8) = (0xff, 0xff, 0xff)

    /// One shape of the SVG, in its 512-unit coordinates, painted in order.
    enum Shape {
        /// A filled disc.
        case disc(x: Double, y: Double, r: Double, white: Bool)
        /// A circle's stroke.
        case ring(x: Double, y: Double, r: Double, width: Double)
        /// A line with round caps.
        case line(x1: Double, y1: Double, x2: Double, y2: Double, width: Double)

        /// The signed distance from the point to the shape's edge (negative inside).
        func distance(_ px: Double, _ py: Double) -> Double {
            switch self {
            case .disc(let x, let y, let r, _): return hypot(px - x, py - y) - r
            case .ring(let x, let y, let r, let width): return abs(hypot(px - x, py - y) - r) - width / 2
            case .line(let x1, let y1, let x2, let y2, let width):
                let dx = x2 - x1, dy = y2 - y1
                let t = max(0, min(1, ((px - x1) * dx + (py - y1) * dy) / (dx * dx + dy * dy)))
                return hypot(px - (x1 + t * dx), py - (y1 + t * dy)) - width / 2
            }
        }

        /// Whether it paints white (else the background's blue).
        var white: Bool { if case .disc(_, _, _, let white) = self { white } else { true } }
    }

    /// `icon.svg`'s shapes, in its order: the bells, the clock's face (blue, over the bells),
    /// its rim, the hands and the feet.
    static let shapes: [Shape] = [
        .disc(x: 161.6, y: 155.2, r: 46.4, white: true),
        .disc(x: 350.4, y: 155.2, r: 46.4, white: true),
        .disc(x: 256, y: 275.2, r: 105.6, white: false),
        .ring(x: 256, y: 275.2, r: 105.6, width: 32),
        .line(x1: 256, y1: 275.2, x2: 256, y2: 203.2, width: 28.8),
        .line(x1: 256, y1: 275.2, x2: 307.2, y2: 308.8, width: 28.8),
        .line(x1: 187.2, y1: 364.8, x2: 163.2, y2: 403.2, width: 28.8),
        .line(x1: 324.8, y1: 364.8, x2: 348.8, y2: 403.2, width: 28.8),
    ]

    private static let drawn = DrawnIcons()

    /// The icon as a PNG of `size` × `size` pixels.
    static func png(size: Int) -> Data { drawn.png(size: size) }

    /// How white each pixel is (0 the background, 255 white), row by row.
    static func whiteness(size: Int) -> [UInt8] {
        let scale = 512 / Double(size)
        var pixels = [UInt8](repeating: 0, count: size * size)
        for row in 0..<size {
            for column in 0..<size {
                let x = (Double(column) + 0.5) * scale, y = (Double(row) + 0.5) * scale
                var white = 0.0
                for shape in shapes {
                    let coverage = max(0, min(1, 0.5 - shape.distance(x, y) / scale))
                    guard coverage > 0 else { continue }
                    white += ((shape.white ? 1 : 0) - white) * coverage
                }
                pixels[row * size + column] = UInt8((white * 255).rounded())
            }
        }
        return pixels
    }

    /// An indexed PNG of `pixels` (each an index into the blue-to-white palette).
    static func encode(_ pixels: [UInt8], size: Int) -> Data {
        var png = Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
        var header = Data()
        header.append(bigEndian: UInt32(size)); header.append(bigEndian: UInt32(size))
        header.append(contentsOf: [8, 3, 0, 0, 0])  // 8-bit indexed, deflate, no filter method, no interlace
        png.append(chunk: "IHDR", header)
        var palette = Data()
        for i in 0..<256 {
            // Spelled out with its types: as one expression it took the type checker 3.4 s.
            let step = Double(i)
            let mix = { (a: UInt8, b: UInt8) -> UInt8 in
                let from = Double(a)
                let to = Double(b)
                let mixed: Double = from + (to - from) * step / 255
                return UInt8(mixed.rounded())
            }
            palette.append(contentsOf: [mix(background.0, foreground.0), mix(background.1, foreground.1), mix(background.2, foreground.2)])
        }
        png.append(chunk: "PLTE", palette)
        var raw = Data(capacity: (size + 1) * size)
        for row in 0..<size {
            raw.append(0)  // no filter
            raw.append(contentsOf: pixels[(row * size)..<((row + 1) * size)])
        }
        png.append(chunk: "IDAT", zlibStored(raw))
        png.append(chunk: "IEND", Data())
        return png
    }

    /// `data` as a zlib stream of stored (uncompressed) deflate blocks.
    static func zlibStored(_ data: Data) -> Data {
        var out = Data([0x78, 0x01])
        let bytes = [UInt8](data)
        var offset = 0
        repeat {
            let length = min(65_535, bytes.count - offset)
            out.append(offset + length == bytes.count ? 1 : 0)
            out.append(contentsOf: [UInt8(length & 0xff), UInt8(length >> 8), UInt8(~length & 0xff), UInt8((~length >> 8) & 0xff)])
            out.append(contentsOf: bytes[offset..<(offset + length)])
            offset += length
        } while offset < bytes.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        out.append(bigEndian: (b << 16) | a)
        return out
    }

    static let crcTable: [UInt32] = (0..<256).map { n in
        (0..<8).reduce(UInt32(n)) { c, _ in c & 1 == 1 ? 0xedb8_8320 ^ (c >> 1) : c >> 1 }
    }

    static func crc32(_ data: Data) -> UInt32 {
        ~data.reduce(~UInt32(0)) { crc, byte in crcTable[Int((crc ^ UInt32(byte)) & 0xff)] ^ (crc >> 8) }
    }
}

/// The icons drawn so far, by size.
private final class DrawnIcons: Sendable {
    private let kept = Locked<[Int: Data]>([:])

    func png(size: Int) -> Data {
        if let png = kept.withLock({ $0[size] }) { return png }
        let png = PageIcon.encode(PageIcon.whiteness(size: size), size: size)
        kept.withLock { $0[size] = png }
        return png
    }
}

private extension Data {
    mutating func append(bigEndian value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8((value >> 16) & 0xff), UInt8((value >> 8) & 0xff), UInt8(value & 0xff)])
    }

    /// A PNG chunk: length, type, data, and the CRC of type and data.
    mutating func append(chunk type: String, _ data: Data) {
        append(bigEndian: UInt32(data.count))
        let typed = Data(type.utf8) + data
        append(typed)
        append(bigEndian: PageIcon.crc32(typed))
    }
}
