import Foundation

/// A ringtone as a person looks at it, as Ringdroid and ringtone editors show one: the waveform
/// (the min/max envelope of each pixel column), each clip's span with its title, the gaps, the
/// cap as a line, the clips left out drawn after it in grey with their reason, and the loudness
/// in a caption. Written as plain SVG (`svg(width:)`) or as one line of block characters for a
/// terminal (`blocks(columns:)`).
///
/// Pure: the samples come decoded from the ringtone file; nothing here reads or writes.
package struct RingtonePicture: Sendable {
    /// One clip as the picture shows it.
    package struct Span: Sendable, Equatable {
        package var title: String
        /// Seconds from the ringtone's start.
        package var start: Double
        /// Seconds: what plays, or for a clip left out its own length (nil when unknown).
        package var duration: Double?
        /// False for a clip the cap left out: drawn after the ringtone, greyed, with its reason.
        package var used: Bool
        package var reason: String?

        package init(title: String, start: Double, duration: Double?, used: Bool, reason: String?) {
            self.title = title
            self.start = start
            self.duration = duration
            self.used = used
            self.reason = reason
        }
    }

    /// What the caption names first (`morning`, a file name).
    package var name: String
    /// The ringtone's samples, mono.
    package var samples: [Float]
    package var sampleRate: Int
    package var cap: Double
    package var spans: [Span]
    /// Integrated loudness (LUFS) and true peak (dBTP) as measured on the file; nil when not measured.
    package var loudness: Double?
    package var truePeak: Double?
    /// A line the caption adds (`the default tone: no recording yet`).
    package var note: String?

    package init(
        name: String, samples: [Float], sampleRate: Int, cap: Double, spans: [Span],
        loudness: Double? = nil, truePeak: Double? = nil, note: String? = nil
    ) {
        precondition(sampleRate > 0, "a picture needs a sample rate")
        self.name = name
        // A damaged file can decode to NaN or infinity: drawn as silence, never trusted as a height.
        self.samples = samples.contains { !$0.isFinite } ? samples.map { $0.isFinite ? $0 : 0 } : samples
        self.sampleRate = sampleRate
        self.cap = cap
        self.spans = spans
        self.loudness = loudness
        self.truePeak = truePeak
        self.note = note
    }

    /// Seconds of audio.
    package var duration: Double { Double(samples.count) / Double(sampleRate) }

    /// Colours the picture uses, fixed so a test can find each element in a rendered image.
    package enum Colour {
        package static let waveform = "#1f77b4"
        package static let cap = "#d62728"
        package static let boundary = "#ff7f0e"
        package static let leftOut = "#bbbbbb"
    }

    /// How long a left-out clip of unknown length is drawn.
    static let unknownLength = 2.0

    /// Where the time axis ends: past the cap, the ringtone and every left-out clip.
    var timelineEnd: Double {
        let ends = spans.map { $0.start + ($0.duration ?? Self.unknownLength) }.filter(\.isFinite)
        return max(cap, duration, ends.max() ?? 0) * 1.04
    }

    /// Seconds between time labels: a round step that gives at most about 12 of them.
    static func tickStep(for end: Double) -> Double {
        [1.0, 2, 5, 10, 15, 30, 60, 120, 300, 600].first { end / $0 <= 12 } ?? (end / 12).rounded(.up)
    }

    /// The smallest and largest sample in each of `columns` equal slices of `samples[range]`.
    package static func envelope(_ samples: ArraySlice<Float>, columns: Int) -> [(min: Float, max: Float)] {
        guard columns > 0, !samples.isEmpty else { return [] }
        var result: [(min: Float, max: Float)] = []
        result.reserveCapacity(columns)
        let count = samples.count, base = samples.startIndex
        for column in 0..<columns {
            let from = base + count * column / columns
            let to = max(from + 1, base + count * (column + 1) / columns)
            var low: Float = 0, high: Float = 0
            for sample in samples[from..<min(to, samples.endIndex)] {
                low = Swift.min(low, sample)
                high = Swift.max(high, sample)
            }
            result.append((low, high))
        }
        return result
    }

    /// The picture as SVG, `width` pixels wide and a quarter as high (at least 150). Titles that
    /// do not fit their span are ellipsised; the caption and labels use 12–14 px text, readable
    /// from 600 px wide.
    package func svg(width: Int = 1200) -> String {
        precondition(width >= 200, "a picture narrower than 200 px shows nothing")
        let height = max(150, width / 4)
        let left = 12.0, right = Double(width) - 12, top = 30.0, bottom = Double(height) - 58
        let end = timelineEnd
        func x(_ seconds: Double) -> Double { left + seconds / end * (right - left) }
        func f(_ value: Double) -> String { String(format: "%.1f", value) }
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">
            <title>\(Self.escaped(name))</title>
            <rect width="\(width)" height="\(height)" fill="#ffffff"/>

            """
        out +=
            "<text x=\"\(f(left))\" y=\"19\" font-size=\"14\" fill=\"#222222\">\(Self.escaped(Self.fitted(caption, to: Double(width) - 24, size: 14)))</text>\n"

        // Clip spans (behind the waveform) and their titles below it.
        for span in spans {
            let start = x(span.start), stop = x(span.start + (span.duration ?? Self.unknownLength))
            let fill = span.used ? "#e8f0fa" : "#f0f0f0"
            out +=
                "<rect x=\"\(f(start))\" y=\"\(f(top))\" width=\"\(f(max(1, stop - start)))\" height=\"\(f(bottom - top))\" fill=\"\(fill)\"\(span.used ? "" : " stroke=\"\(Colour.leftOut)\" stroke-dasharray=\"4 3\"")/>\n"
            let label = span.used ? span.title : "\(span.title) — \(span.reason ?? "left out")"
            out +=
                "<text x=\"\(f(start + 3))\" y=\"\(f(bottom + 16))\" font-size=\"12\" fill=\"\(span.used ? "#222222" : "#888888")\">\(Self.escaped(Self.fitted(label, to: stop - start - 4, size: 12)))</text>\n"
        }

        // The waveform: the envelope as one filled shape, maxima left to right, minima back.
        let columns = max(1, Int((x(duration) - left).rounded()))
        let envelope = Self.envelope(samples[...], columns: columns)
        let middle = (top + bottom) / 2, half = (bottom - top) / 2 - 2
        if !envelope.isEmpty {
            var points: [String] = []
            for (i, column) in envelope.enumerated() { points.append("\(f(left + Double(i) + 0.5)),\(f(middle - Double(column.max) * half))") }
            for (i, column) in envelope.enumerated().reversed() { points.append("\(f(left + Double(i) + 0.5)),\(f(middle - Double(column.min) * half))") }
            out += "<polygon points=\"\(points.joined(separator: " "))\" fill=\"\(Colour.waveform)\" stroke=\"\(Colour.waveform)\" stroke-width=\"1\"/>\n"
            // The baseline, so silence shows as a line to the ringtone's last sample.
            let baseline = f(middle.rounded(.down) + 0.5)
            out +=
                "<line x1=\"\(f(left))\" y1=\"\(baseline)\" x2=\"\(f(left + Double(envelope.count)))\" y2=\"\(baseline)\" stroke=\"\(Colour.waveform)\" stroke-width=\"1\" shape-rendering=\"crispEdges\"/>\n"
        }

        // Clip boundaries: where each used clip starts and the last one ends.
        let used = spans.filter(\.used)
        var boundaries = used.map(\.start)
        if let last = used.last { boundaries.append(last.start + (last.duration ?? 0)) }
        // Lines sit on pixel centres with crisp edges, so each is one exact colour at any size.
        func pixel(_ value: Double) -> String { f(value.rounded(.down) + 0.5) }
        for seconds in boundaries {
            out +=
                "<line x1=\"\(pixel(x(seconds)))\" y1=\"\(f(top))\" x2=\"\(pixel(x(seconds)))\" y2=\"\(f(bottom + 4))\" stroke=\"\(Colour.boundary)\" stroke-width=\"1\" shape-rendering=\"crispEdges\"/>\n"
        }

        // The cap, with its label, and a time axis every 5 s.
        out +=
            "<line x1=\"\(pixel(x(cap)))\" y1=\"\(f(top - 4))\" x2=\"\(pixel(x(cap)))\" y2=\"\(f(bottom + 4))\" stroke=\"\(Colour.cap)\" stroke-width=\"2\" shape-rendering=\"crispEdges\"/>\n"
        out +=
            "<text x=\"\(f(x(cap) - 4))\" y=\"\(f(top + 12))\" font-size=\"12\" fill=\"\(Colour.cap)\" text-anchor=\"end\">\(Self.seconds(cap)) s cap</text>\n"
        let step = Self.tickStep(for: end)
        for index in 0...Int(end / step) {
            let tick = Double(index) * step
            out += "<text x=\"\(f(x(tick)))\" y=\"\(f(Double(height) - 8))\" font-size=\"11\" fill=\"#666666\" text-anchor=\"middle\">\(Int(tick)) s</text>\n"
        }
        return out + "</svg>\n"
    }

    /// The caption: `morning · 23.41 s of the 29 s cap · -16.0 LUFS · true peak -1.2 dBTP`.
    package var caption: String {
        var parts = [name, String(format: "%.2f s of the %@ s cap", duration, Self.seconds(cap))]
        if let loudness { parts.append(String(format: "%.1f LUFS", loudness)) }
        if let truePeak { parts.append(String(format: "true peak %.1f dBTP", truePeak)) }
        if let note { parts.append(note) }
        return parts.joined(separator: " · ")
    }

    /// The waveform as one line of `columns` block characters (▁…█, by each column's peak),
    /// with `│` where a clip starts, for a terminal.
    package func blocks(columns: Int) -> String {
        precondition(columns > 0, "a line needs a column")
        let blocks: [Character] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        let envelope = Self.envelope(samples[...], columns: columns)
        var line = envelope.map { column -> Character in
            let peak = Double(max(-column.min, column.max))
            return blocks[min(8, Int((peak.squareRoot() * 8).rounded()))]
        }
        guard duration > 0, !line.isEmpty else { return String(line) }
        for span in spans.dropFirst() where span.used {
            let column = Int(span.start / duration * Double(line.count))
            if column > 0, column < line.count { line[column] = "│" }
        }
        return String(line)
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }

    /// `text` cut with an ellipsis to about `width` pixels of `size`-pixel text (an average glyph
    /// is taken as 0.6 of the size).
    static func fitted(_ text: String, to width: Double, size: Double) -> String {
        let fits = Int(width / (size * 0.6))
        guard text.count > fits else { return text }
        return fits <= 1 ? "" : String(text.prefix(fits - 1)) + "…"
    }

    /// Text made safe for XML.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                // Control characters and the noncharacters U+FFFE, U+FFFF are not allowed in XML 1.0 text.
                if (scalar.value < 0x20 && scalar != "\t") || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += " "
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
