/// One `name: value` field line (RFC 9112 §5), validated byte by byte.
enum HeaderLine {
    static func parse(_ buffer: [UInt8], _ range: Range<Int>) throws(HTTPParseError) -> (name: String, value: String) {
        guard let first = range.first.map({ buffer[$0] }) else { throw .malformed("empty header line") }
        if first == ASCII.space || first == ASCII.tab {
            throw .malformed("header line starts with whitespace (obsolete line folding)")
        }
        guard let colon = buffer[range].firstIndex(of: ASCII.colon) else {
            throw .malformed("header line without ':'")
        }
        let nameBytes = buffer[range.lowerBound..<colon]
        guard !nameBytes.isEmpty, nameBytes.allSatisfy(ASCII.isToken) else {
            throw .malformed("invalid header name (no whitespace is allowed before ':')")
        }
        var valueStart = colon + 1
        var valueEnd = range.upperBound
        while valueStart < valueEnd, buffer[valueStart] == ASCII.space || buffer[valueStart] == ASCII.tab {
            valueStart += 1
        }
        while valueEnd > valueStart, buffer[valueEnd - 1] == ASCII.space || buffer[valueEnd - 1] == ASCII.tab {
            valueEnd -= 1
        }
        let valueBytes = buffer[valueStart..<valueEnd]
        guard valueBytes.allSatisfy(ASCII.isFieldValueByte) else {
            throw .malformed("control character in header value")
        }
        return (String(decoding: nameBytes, as: UTF8.self), String(decoding: valueBytes, as: UTF8.self))
    }
}
