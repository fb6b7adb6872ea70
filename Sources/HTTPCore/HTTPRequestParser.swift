import ByteWords

/// An incremental HTTP/1.1 request parser: bytes in, whole requests (or one error with its status) out.
///
/// It does no I/O and keeps no clock, so every framing rule and limit is unit-testable by feeding it
/// bytes in any split. Strict by design (RFC 9112): a mock that accepts what a real server would
/// reject hides client bugs, and lenient framing is where request smuggling lives. After an error the
/// parser stays failed; the connection answers with the error's status and closes.
public struct HTTPRequestParser: Sendable {
    public let limits: HTTPLimits

    private var buffer: [UInt8] = []
    /// First byte of the message being parsed; everything before it is consumed.
    private var start = 0
    /// Where the search for the end of the head resumes, so each byte is looked at once.
    private var scanIndex = 0
    /// Index of the CR ending the request line, once seen.
    private var requestLineEnd: Int?
    private var state: State = .head
    /// The head of a request whose body failed (a bad chunk, one too large): the refusal still
    /// names the request, as one whose head failed does.
    private var failedHead: (method: String, target: String, headers: HTTPHeaders)?
    private var continueRequested = false

    private enum State: Sendable {
        case head
        case fixedBody(HTTPRequest, remaining: Int)
        case chunked(HTTPRequest, ChunkedBodyDecoder)
        case failed(HTTPParseError)
    }

    public init(limits: HTTPLimits = HTTPLimits()) {
        self.limits = limits
    }

    /// What is known of the request being read when it has to be refused: the whole head when its
    /// body is coming, else the request line when it has arrived (method and a target starting
    /// with `/`), else nil.
    public func partialRequest() -> (method: String, target: String, headers: HTTPHeaders)? {
        switch state {
        case .fixedBody(let request, _), .chunked(let request, _):
            return (request.method.rawValue, request.target, request.headers)
        case .failed:
            if let failedHead { return failedHead }
        case .head:
            break
        }
        guard start < buffer.count else { return nil }
        var end = start
        while end < buffer.count && buffer[end] != UInt8(ascii: "\r") && buffer[end] != UInt8(ascii: "\n") { end += 1 }
        guard end < buffer.count else { return nil }
        let parts = buffer[start..<end].split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty,
            parts[0].allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }),
            parts[1].first == UInt8(ascii: "/")
        else { return nil }
        return (String(decoding: parts[0], as: UTF8.self), String(decoding: parts[1], as: UTF8.self), HTTPHeaders())
    }

    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
    }

    public mutating func append<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        buffer.append(contentsOf: bytes)
    }

    /// Bytes received that are not yet part of a returned request. A connection with some is in the
    /// middle of a request (the header timeout applies), one without is idle.
    public var bufferedByteCount: Int { buffer.count - start }

    /// Whether a request's headers are complete and its body is still coming.
    public var isReadingBody: Bool {
        switch state {
        case .fixedBody, .chunked: return true
        case .head, .failed: return false
        }
    }

    /// True once after a head with `Expect: 100-continue` whose body has not arrived yet: the
    /// connection should send `100 Continue` so clients like curl don't wait a second for it.
    public mutating func takeContinueRequest() -> Bool {
        defer { continueRequested = false }
        return continueRequested
    }

    /// The next complete request, nil when more bytes are needed, or the error that ends the connection.
    public mutating func next() throws(HTTPParseError) -> HTTPRequest? {
        do {
            return try step()
        } catch {
            if failedHead == nil, isReadingBody { failedHead = partialRequest() }
            state = .failed(error)
            throw error
        }
    }

    private mutating func step() throws(HTTPParseError) -> HTTPRequest? {
        switch state {
        case .failed(let error):
            throw error
        case .head:
            guard let headEnd = try scanForEndOfHead() else { return nil }
            let (request, framing) = try parseHead(upTo: headEnd)
            start = headEnd
            requestLineEnd = nil
            switch framing {
            case .none:
                return finish(request)
            case .length(let length):
                state = .fixedBody(request, remaining: length)
                continueRequested = request.expectsContinue && buffer.count - start < length
            case .chunked:
                state = .chunked(request, ChunkedBodyDecoder(cursor: start))
                continueRequested = request.expectsContinue && buffer.count == start
            }
            return try step()
        case .fixedBody(var request, let remaining):
            guard buffer.count - start >= remaining else { return nil }
            request.body = Array(buffer[start..<(start + remaining)])
            start += remaining
            return finish(request)
        case .chunked(var request, var decoder):
            let done = try decoder.decode(buffer, limits: limits)
            guard done else {
                // What the decoder consumed (framing, and data it copied) is dropped now, not
                // when the body ends: a body of small chunks must not hold its framing too.
                if decoder.cursor >= Self.compactionBytes {
                    buffer.removeFirst(decoder.cursor)
                    decoder.rebase(droppingFirst: decoder.cursor)
                    start = 0
                    scanIndex = 0
                }
                state = .chunked(request, decoder)
                return nil
            }
            request.body = decoder.body
            start = decoder.cursor
            return finish(request)
        }
    }

    private mutating func finish(_ request: HTTPRequest) -> HTTPRequest {
        state = .head
        continueRequested = false
        compact()
        return request
    }

    /// Consumed bytes kept at the front of the buffer before they are dropped.
    private static let compactionBytes = 16 * 1024

    /// Drops consumed bytes; cheap when the buffer is drained, as it is after most requests.
    private mutating func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
            start = 0
        } else if start >= Self.compactionBytes {
            buffer.removeFirst(start)
            start = 0
        }
        scanIndex = start
    }

    // MARK: - Head

    /// Finds the CRLF CRLF that ends the head, rejecting bare LF at once (waiting for a terminator
    /// that will never come would turn a bad client into a slow one) and enforcing the size limits
    /// while the head is still incomplete.
    private mutating func scanForEndOfHead() throws(HTTPParseError) -> Int? {
        // A request starts with its method (a token). Anything else, a TLS ClientHello, binary
        // garbage, or an empty line (RFC 9112 §2.2 lets a server skip those, but h11 and other
        // strict parsers reject them, and a client that sends one is worth hearing about), is
        // answered at once, not after the header timeout.
        if requestLineEnd == nil, start < buffer.count, !ASCII.isToken(buffer[start]) {
            throw .malformed(
                buffer[start] == ASCII.cr || buffer[start] == ASCII.lf
                    ? "empty line before the request line" : "invalid method")
        }
        let end = buffer.count
        let requestLineWasComplete = requestLineEnd != nil
        var index = scanIndex
        let found: Int? = buffer.withUnsafeBufferPointer { bytes -> Int? in
            while let lf = ByteScan.firstIndex(of: ASCII.lf, in: bytes, from: index, to: end) {
                index = lf
                if index == start || bytes[index - 1] != ASCII.cr { return -1 }
                if requestLineEnd == nil { requestLineEnd = index - 1 }
                if index - 3 >= start, bytes[index - 2] == ASCII.lf, bytes[index - 3] == ASCII.cr {
                    return index + 1
                }
                index += 1
            }
            index = end
            return nil
        }
        if found == -1 { throw .malformed("line ends in a bare LF; HTTP/1.1 requires CRLF") }
        scanIndex = index
        let lineLimit = limits.maxRequestLineBytes
        if let lineEnd = requestLineEnd {
            if lineEnd - start > lineLimit {
                throw HTTPParseError(.uriTooLong, "request line longer than \(lineLimit) bytes")
            }
            let headerBytes = (found ?? end) - (lineEnd + 2)
            if headerBytes > limits.maxHeaderBytes + 2 {
                throw HTTPParseError(.headersTooLarge, "headers larger than \(limits.maxHeaderBytes) bytes")
            }
        } else if end - start > lineLimit + 1 {  // + 1: the line's CR may be here without its LF
            throw HTTPParseError(.uriTooLong, "request line longer than \(lineLimit) bytes")
        }
        // A request line that is complete but wrong (`GET /path` with no version, as HTTP/0.9 sent,
        // a bad version, a bad target) is answered as soon as it is seen, as nginx and h11 do, not
        // after the header timeout. Checked once, when the line's end first arrives and the head
        // is not complete yet; a complete head is checked by parseHead anyway.
        if found == nil, !requestLineWasComplete, let lineEnd = requestLineEnd {
            _ = try parseRequestLine(start..<lineEnd)
        }
        return found
    }

    private enum Framing {
        case none
        case length(Int)
        case chunked
    }

    private func parseHead(upTo headEnd: Int) throws(HTTPParseError) -> (HTTPRequest, Framing) {
        guard let lineEnd = requestLineEnd else { throw .malformed("missing request line") }
        var request = try parseRequestLine(start..<lineEnd)

        var headers = HTTPHeaders()
        headers.reserveCapacity(8)
        var lineStart = lineEnd + 2
        let headersEnd = headEnd - 2
        while lineStart < headersEnd {
            var crIndex = lineStart
            while buffer[crIndex] != ASCII.cr { crIndex += 1 }
            if headers.count == limits.maxHeaderCount {
                throw HTTPParseError(.headersTooLarge, "more than \(limits.maxHeaderCount) header fields")
            }
            let field = try HeaderLine.parse(buffer, lineStart..<crIndex)
            headers.add(field.name, field.value)
            lineStart = crIndex + 2
            if buffer[crIndex + 1] != ASCII.lf { throw .malformed("CR without LF in header section") }
        }
        request.headers = headers
        return (request, try framing(of: request))
    }

    private func parseRequestLine(_ range: Range<Int>) throws(HTTPParseError) -> HTTPRequest {
        // The target is the long part: its bytes are checked on the way to the second space.
        let spaces: (first: Int, second: Int, targetIsValid: Bool)? = buffer.withUnsafeBufferPointer { bytes in
            guard
                let first = ByteScan.firstIndex(
                    of: ASCII.space, in: bytes, from: range.lowerBound, to: range.upperBound)
            else { return nil }
            let run = ByteScan.targetRun(in: bytes, from: first + 1, to: range.upperBound)
            let stop = first + 1 + run
            if stop < range.upperBound && bytes[stop] == ASCII.space { return (first, stop, true) }
            guard let second = ByteScan.firstIndex(of: ASCII.space, in: bytes, from: stop, to: range.upperBound)
            else { return nil }
            return (first, second, false)
        }
        guard let (firstSpace, secondSpace, targetIsValid) = spaces
        else { throw .malformed("request line is not 'METHOD target HTTP/1.1'") }

        let methodBytes = buffer[range.lowerBound..<firstSpace]
        guard !methodBytes.isEmpty, methodBytes.allSatisfy(ASCII.isToken) else {
            throw .malformed("invalid method")
        }
        let targetBytes = buffer[(firstSpace + 1)..<secondSpace]
        guard !targetBytes.isEmpty, targetIsValid else {
            throw .malformed("invalid request target")
        }
        let version = try parseVersion(buffer[(secondSpace + 1)..<range.upperBound])
        var target = String(decoding: targetBytes, as: UTF8.self)
        if !target.hasPrefix("/") && target != "*" {
            target = try originForm(ofAbsolute: target)
        }
        return HTTPRequest(
            method: HTTPMethod(rawValue: String(decoding: methodBytes, as: UTF8.self)),
            target: target, version: version
        )
    }

    /// `http://host/path?q` (absolute-form, sent through proxies) routes like `/path?q`.
    private func originForm(ofAbsolute target: String) throws(HTTPParseError) -> String {
        for scheme in ["http://", "https://"] where target.lowercased().hasPrefix(scheme) {
            let rest = target.dropFirst(scheme.count)
            guard let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
            let tail = String(rest[slash...])
            return tail.hasPrefix("?") ? "/" + tail : tail
        }
        throw .malformed("request target must start with '/'")
    }

    private func parseVersion(_ bytes: ArraySlice<UInt8>) throws(HTTPParseError) -> HTTPVersion {
        let at = bytes.startIndex
        guard bytes.count == 8, bytes[at] == UInt8(ascii: "H"), bytes[at + 1] == UInt8(ascii: "T"),
            bytes[at + 2] == UInt8(ascii: "T"), bytes[at + 3] == UInt8(ascii: "P"), bytes[at + 4] == UInt8(ascii: "/"),
            bytes[at + 6] == UInt8(ascii: "."), let major = ASCII.digit(bytes[at + 5]),
            let minor = ASCII.digit(bytes[at + 7])
        else { throw .malformed("invalid HTTP version") }
        guard major == 1 else {
            throw HTTPParseError(.versionNotSupported, "only HTTP/1.x is supported")
        }
        return minor == 0 ? .http10 : .http11
    }

    /// How the body is delimited (RFC 9112 §6.3), rejecting every ambiguous combination.
    private func framing(of request: HTTPRequest) throws(HTTPParseError) -> Framing {
        // One pass over the fields (the comparison turns other lengths away first).
        var hosts = 0
        var transferEncodings: [String] = []
        var contentLengths: [String] = []
        for field in request.headers {
            if field.name.isEqualIgnoringASCIICase("Host") {
                hosts += 1
            } else if field.name.isEqualIgnoringASCIICase("Content-Length") {
                contentLengths.append(field.value)
            } else if field.name.isEqualIgnoringASCIICase("Transfer-Encoding") {
                transferEncodings.append(field.value)
            }
        }
        if hosts > 1 { throw .malformed("more than one Host header") }
        if request.version == .http11 && hosts == 0 { throw .malformed("HTTP/1.1 request without Host") }

        if !transferEncodings.isEmpty {
            if !contentLengths.isEmpty { throw .malformed("both Content-Length and Transfer-Encoding") }
            if request.version == .http10 { throw .malformed("Transfer-Encoding in an HTTP/1.0 request") }
            let codings =
                transferEncodings
                .flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
                .map { $0.trimmingASCIIWhitespace().lowercased() }
            guard codings.last == "chunked" else {
                throw .malformed("Transfer-Encoding must end with chunked")
            }
            guard codings.count == 1 else {
                throw HTTPParseError(.notImplemented, "only the chunked transfer coding is supported")
            }
            return .chunked
        }
        guard !contentLengths.isEmpty else { return .none }
        var length: Int?
        for field in contentLengths {
            for part in field.split(separator: ",", omittingEmptySubsequences: false) {
                let digits = part.trimmingASCIIWhitespace()
                guard !digits.isEmpty, digits.utf8.count <= 18, digits.utf8.allSatisfy({ ASCII.digit($0) != nil }),
                    let value = Int(digits)
                else { throw .malformed("invalid Content-Length") }
                if let seen = length, seen != value { throw .malformed("conflicting Content-Length values") }
                length = value
            }
        }
        let bodyLength = length ?? 0
        if bodyLength > limits.maxBodyBytes {
            throw HTTPParseError(.payloadTooLarge, "body larger than \(limits.maxBodyBytes) bytes")
        }
        return bodyLength == 0 ? .none : .length(bodyLength)
    }
}

extension HTTPRequest {
    var expectsContinue: Bool { headers.containsToken("100-continue", in: "Expect") }
}

extension ASCII {
    @inline(__always)
    static func digit(_ byte: UInt8) -> Int? {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) ? Int(byte - UInt8(ascii: "0")) : nil
    }
}
