/// What a `Range` header asks of a file of `size` bytes: one range of it (`bytes=0-99`,
/// `bytes=100-`, `bytes=-500`), all of it (no header, a unit other than bytes, several ranges,
/// or text that is not a range), or nothing it has (416).
package enum ByteRange: Equatable, Sendable {
    case whole
    case part(ClosedRange<Int>)
    case unsatisfiable

    package static func parse(_ header: String?, size: Int) -> ByteRange {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else { return .whole }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return .whole }
        let first = parts[0].isEmpty ? nil : Int(parts[0]), last = parts[1].isEmpty ? nil : Int(parts[1])
        if !parts[0].isEmpty && first == nil || !parts[1].isEmpty && last == nil { return .whole }
        switch (first, last) {
        case (let start?, let end):
            guard start >= 0, start < size else { return .unsatisfiable }
            let stop = min(end ?? size - 1, size - 1)
            return stop >= start ? .part(start...stop) : .whole
        case (nil, let suffix?):
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .part(max(0, size - suffix)...(size - 1))
        case (nil, nil):
            return .whole
        }
    }
}
