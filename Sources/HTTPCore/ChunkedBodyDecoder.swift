/// Decodes a chunked body (RFC 9112 §7.1) incrementally from the parser's buffer.
///
/// It remembers where it stopped (`cursor`, an index into the caller's buffer) so bytes that arrive
/// one at a time are still read once. Chunk sizes are plain hex: no `0x`, no `_`, no sign; chunk
/// lines end in CRLF; extensions are skipped; trailer fields are checked like headers and dropped
/// (Content-Length and Transfer-Encoding there are rejected).
///
/// Framing counts against the body limit: chunk-size lines, extensions, CRLFs and trailers are
/// bytes the client sent, and 1-byte chunks with 4 KB extensions once held 764 MiB for one
/// connection while the body itself stayed under 1 MiB. The parser drops what is consumed
/// (`rebase`), so what a connection holds is the decoded body and what has not been read yet.
struct ChunkedBodyDecoder: Sendable {
    private(set) var cursor: Int
    private(set) var body: [UInt8] = []
    private var phase: Phase = .size
    private var trailerBytes = 0
    /// Bytes of the chunked body consumed so far, framing and data.
    private(set) var consumed = 0

    private enum Phase: Sendable {
        case size
        case data(remaining: Int)
        case dataEnd
        case trailer
    }

    /// Longest chunk-size line (size plus extensions) we read before calling it malformed.
    static let maxSizeLineBytes = 4096

    init(cursor: Int) { self.cursor = cursor }

    /// The caller dropped the first `count` bytes of its buffer (all consumed).
    mutating func rebase(droppingFirst count: Int) { cursor -= count }

    /// Moves the cursor past `count` bytes, counting them against the body limit.
    private mutating func consume(_ count: Int, limits: HTTPLimits) throws(HTTPParseError) {
        cursor += count
        consumed += count
        if consumed > limits.maxBodyBytes { throw Self.tooLarge(limits) }
    }

    private static func tooLarge(_ limits: HTTPLimits) -> HTTPParseError {
        HTTPParseError(.payloadTooLarge, "body larger than \(limits.maxBodyBytes) bytes (chunk framing included)")
    }

    /// Consumes what it can; true when the last chunk and the trailer section are complete.
    mutating func decode(_ buffer: [UInt8], limits: HTTPLimits) throws(HTTPParseError) -> Bool {
        while true {
            switch phase {
            case .size:
                guard let lineEnd = try Self.lineEnd(in: buffer, from: cursor, limit: Self.maxSizeLineBytes) else {
                    return false
                }
                let size = try Self.chunkSize(buffer[cursor..<lineEnd])
                try consume(lineEnd + 2 - cursor, limits: limits)
                if size == 0 {
                    phase = .trailer
                } else {
                    // The data and its CRLF must fit too.
                    if size > limits.maxBodyBytes - consumed - 2 { throw Self.tooLarge(limits) }
                    phase = .data(remaining: size)
                }
            case .data(let remaining):
                let available = min(remaining, buffer.count - cursor)
                guard available > 0 else { return false }
                body.append(contentsOf: buffer[cursor..<(cursor + available)])
                try consume(available, limits: limits)
                phase = available == remaining ? .dataEnd : .data(remaining: remaining - available)
            case .dataEnd:
                guard buffer.count - cursor >= 2 else { return false }
                guard buffer[cursor] == ASCII.cr, buffer[cursor + 1] == ASCII.lf else {
                    throw .malformed("chunk data not followed by CRLF")
                }
                try consume(2, limits: limits)
                phase = .size
            case .trailer:
                let room = limits.maxHeaderBytes - trailerBytes
                guard let lineEnd = try Self.lineEnd(in: buffer, from: cursor, limit: room) else { return false }
                if lineEnd == cursor {
                    try consume(2, limits: limits)
                    return true
                }
                let field = try HeaderLine.parse(buffer, cursor..<lineEnd)
                // Framing fields are not allowed in trailers (RFC 9110 §6.5.1); one there means a
                // client or intermediary that disagrees with us about where the message ends.
                for name in ["Content-Length", "Transfer-Encoding"] where field.name.isEqualIgnoringASCIICase(name) {
                    throw .malformed("\(name) in the trailer section")
                }
                trailerBytes += lineEnd - cursor + 2
                try consume(lineEnd + 2 - cursor, limits: limits)
            }
        }
    }

    /// The index of the CR of the next CRLF at or after `from`, nil if not there yet.
    private static func lineEnd(in buffer: [UInt8], from: Int, limit: Int) throws(HTTPParseError) -> Int? {
        var index = from
        while index < buffer.count {
            let byte = buffer[index]
            if byte == ASCII.lf { throw .malformed("bare LF in chunked framing") }
            if byte == ASCII.cr {
                guard index + 1 < buffer.count else { return nil }
                guard buffer[index + 1] == ASCII.lf else { throw .malformed("CR without LF in chunked framing") }
                return index
            }
            index += 1
            if index - from > limit { throw .malformed("chunk line too long") }
        }
        return nil
    }

    private static func chunkSize(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> Int {
        var size = 0
        var digits = 0
        var index = line.startIndex
        while index < line.endIndex, let value = ASCII.hexValue(line[index]) {
            digits += 1
            if digits > 15 { throw .malformed("chunk size too large") }
            size = size &* 16 &+ value
            index += 1
        }
        guard digits > 0 else { throw .malformed("invalid chunk size") }
        // After the size only extensions may follow, starting with ';' at once. RFC 9112 allows
        // whitespace before it, but h11 and the parsers of RFC 7230 do not: rejected, to match them.
        if index < line.endIndex {
            guard line[index] == ASCII.semicolon,
                line[index...].allSatisfy(ASCII.isFieldValueByte)
            else { throw .malformed("invalid chunk size") }
        }
        return size
    }
}
