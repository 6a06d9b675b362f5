/// Text from a request made safe for the server's log: bounded (a path of 100 KB is not copied
/// into the journal) and escaped (no control character, newline or escape sequence reaches a
/// terminal that shows the log), whoever sent it.
enum LogText {
    /// `text` with every byte outside printable ASCII as `%XX`, cut after `limit` characters with
    /// the size of the whole: `/api/x%0A…(60000 bytes)`.
    static func bounded(_ text: String, limit: Int = 200) -> String {
        var shown = ""
        for byte in text.utf8 {
            guard shown.utf8.count < limit else {
                return shown + "…(\(text.utf8.count) bytes)"
            }
            if (0x21...0x7E).contains(byte) && byte != UInt8(ascii: "%") {
                shown.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                shown += "%" + String(byte, radix: 16, uppercase: true).leftPadded(2)
            }
        }
        return shown
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
