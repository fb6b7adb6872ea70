import Testing

@testable import HTTPCore

/// Feeds `text` to a fresh parser and collects every request, or the error that ends the stream.
private func parseAll(_ text: String, limits: HTTPLimits = HTTPLimits()) -> (
    requests: [HTTPRequest], error: HTTPParseError?
) {
    parseAll(Array(text.utf8), limits: limits)
}

private func parseAll(_ bytes: [UInt8], limits: HTTPLimits = HTTPLimits(), pieces: [Range<Int>]? = nil) -> (
    requests: [HTTPRequest], error: HTTPParseError?
) {
    var parser = HTTPRequestParser(limits: limits)
    var requests: [HTTPRequest] = []
    for piece in pieces ?? [0..<bytes.count] {
        parser.append(bytes[piece])
        do {
            while let request = try parser.next() { requests.append(request) }
        } catch {
            return (requests, error)
        }
    }
    return (requests, nil)
}

private func status(of text: String, limits: HTTPLimits = HTTPLimits()) -> Int? {
    parseAll(text, limits: limits).error?.status.code
}

@Suite("HTTPRequestParser")
struct HTTPRequestParserTests {
    @Test func parsesASimpleGet() throws {
        let result = parseAll(
            "GET /api/v1/conversion_value?a=1&n=__SESSION__ HTTP/1.1\r\nHost: x\r\nUser-Agent: t\r\n\r\n")
        #expect(result.error == nil)
        let request = try #require(result.requests.first)
        #expect(request.method == .get)
        #expect(request.path == "/api/v1/conversion_value")
        #expect(request.query == "a=1&n=__SESSION__")
        #expect(request.headers["user-agent"] == "t")
        #expect(request.version == .http11)
        #expect(request.keepAlive)
        #expect(request.body.isEmpty)
    }

    @Test func trimsOptionalWhitespaceAroundValues() throws {
        let request = try #require(parseAll("GET / HTTP/1.1\r\nHost:   x \t\r\nX-Empty:\r\n\r\n").requests.first)
        #expect(request.headers["Host"] == "x")
        #expect(request.headers["X-Empty"] == "")
    }

    @Test func readsAContentLengthBody() throws {
        let request = try #require(
            parseAll("POST /f HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello").requests.first)
        #expect(request.body == Array("hello".utf8))
    }

    @Test func readsAChunkedBodyWithExtensionsAndTrailers() throws {
        let text =
            "POST /f HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5;name=value\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: yes\r\n\r\n"
        let request = try #require(parseAll(text).requests.first)
        #expect(request.body == Array("hello world".utf8))
    }

    @Test func acceptsUpperCaseHexChunkSizes() throws {
        let text = "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: Chunked\r\n\r\nA\r\n0123456789\r\n0\r\n\r\n"
        let request = try #require(parseAll(text).requests.first)
        #expect(request.body.count == 10)
    }

    @Test func answersPipelinedRequestsInOrder() {
        let text =
            "GET /1 HTTP/1.1\r\nHost: x\r\n\r\n"
            + "POST /2 HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"
            + "POST /3 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nz\r\n0\r\n\r\n"
            + "GET /4 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        let result = parseAll(text)
        #expect(result.error == nil)
        #expect(result.requests.map(\.target) == ["/1", "/2", "/3", "/4"])
        #expect(result.requests.map(\.body) == [[], Array("abc".utf8), Array("z".utf8), []])
        #expect(result.requests.last?.keepAlive == false)
    }

    /// The same pipelined stream split in two at every byte boundary, then fed one byte at a time,
    /// gives the same requests: no rule may depend on how TCP happened to segment the bytes.
    @Test func givesTheSameRequestsWhateverTheSplit() {
        let text =
            "GET /a?x=1 HTTP/1.1\r\nHost: x\r\n\r\n"
            + "POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\nExpect: 100-continue\r\n\r\nhello world"
            + "PUT /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3;e=1\r\nabc\r\n2\r\nde\r\n0\r\nT: 1\r\n\r\n"
        let bytes = Array(text.utf8)
        let whole = parseAll(bytes)
        #expect(whole.requests.count == 3)
        for split in 0...bytes.count {
            let result = parseAll(bytes, pieces: [0..<split, split..<bytes.count])
            #expect(result.error == nil, "split at \(split)")
            #expect(result.requests.map(\.target) == whole.requests.map(\.target), "split at \(split)")
            #expect(result.requests.map(\.body) == whole.requests.map(\.body), "split at \(split)")
        }
        let byteByByte = parseAll(bytes, pieces: (0..<bytes.count).map { $0..<($0 + 1) })
        #expect(byteByByte.requests.map(\.body) == whole.requests.map(\.body))
    }

    /// RFC 9112 §2.2 lets a server skip them; h11 does not, and neither do we (the differential test).
    @Test func rejectsEmptyLinesBeforeTheRequestLine() {
        #expect(status(of: "\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n") == 400)
        #expect(status(of: "\r") == 400)
    }

    @Test func rewritesAbsoluteFormToOriginForm() throws {
        let request = try #require(
            parseAll("GET http://example.com:8080/p?q=1 HTTP/1.1\r\nHost: x\r\n\r\n").requests.first)
        #expect(request.target == "/p?q=1")
    }

    @Test func decidesKeepAliveByVersionAndConnectionHeader() throws {
        let requests = parseAll(
            "GET / HTTP/1.0\r\n\r\nGET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n"
                + "GET / HTTP/1.1\r\nHost: x\r\nConnection: foo, close\r\n\r\n"
        ).requests
        #expect(requests.map(\.keepAlive) == [false, true, false])
    }

    @Test func asksForContinueOnlyWhileTheBodyIsMissing() throws {
        var parser = HTTPRequestParser()
        parser.append(Array("POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n".utf8))
        #expect(try parser.next() == nil)
        let first = parser.takeContinueRequest()
        let second = parser.takeContinueRequest()
        #expect(first)
        #expect(!second)
        parser.append(Array("ok".utf8))
        #expect(try parser.next()?.body == Array("ok".utf8))
    }

    @Test func reportsBufferedBytesForTimeouts() throws {
        var parser = HTTPRequestParser()
        #expect(parser.bufferedByteCount == 0)
        parser.append(Array("GET / HT".utf8))
        let early = try parser.next()
        #expect(early == nil)
        #expect(parser.bufferedByteCount == 8)
        parser.append(Array("TP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(try parser.next() != nil)
        #expect(parser.bufferedByteCount == 0)
    }

    // MARK: - Limits

    @Test func rejectsALongRequestLineWith414EvenBeforeItEnds() {
        let long = "GET /" + String(repeating: "a", count: 8 * 1024) + " HTTP/1.1\r\nHost: x\r\n\r\n"
        #expect(status(of: long) == 414)
        let unfinished = "GET /" + String(repeating: "a", count: 9 * 1024)
        #expect(status(of: unfinished) == 414)
    }

    @Test func acceptsARequestLineJustUnderTheLimit() {
        let target = "/" + String(repeating: "a", count: 8 * 1024 - 14)
        let line = "GET \(target) HTTP/1.1"
        #expect(line.utf8.count == 8 * 1024)
        #expect(parseAll(line + "\r\nHost: x\r\n\r\n").requests.count == 1)
    }

    @Test func rejectsLargeHeadersWith431() {
        let big = "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "b", count: 17 * 1024) + "\r\n\r\n"
        #expect(status(of: big) == 431)
        let unfinished = "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "b", count: 17 * 1024)
        #expect(status(of: unfinished) == 431)
    }

    @Test func rejectsTooManyHeaderLinesWith431() {
        var text = "GET / HTTP/1.1\r\nHost: x\r\n"
        for index in 0..<100 { text += "X-\(index): v\r\n" }
        #expect(status(of: text + "\r\n") == 431)
        var fits = "GET / HTTP/1.1\r\nHost: x\r\n"
        for index in 0..<99 { fits += "X-\(index): v\r\n" }
        #expect(parseAll(fits + "\r\n").requests.count == 1)
    }

    @Test func rejectsLargeBodiesWith413() {
        #expect(status(of: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1048577\r\n\r\n") == 413)
        var limits = HTTPLimits()
        limits.maxBodyBytes = 8
        let chunked =
            "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabcde\r\n5\r\nfghij\r\n0\r\n\r\n"
        #expect(status(of: chunked, limits: limits) == 413)
        #expect(status(of: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 8\r\n\r\n12345678", limits: limits) == nil)
    }

    // MARK: - Malformed input: 400 (or the status RFC 9110 names)

    @Test(arguments: [
        ("GET /\r\nHost: x\r\n\r\n", "no version"),
        ("GET  / HTTP/1.1\r\nHost: x\r\n\r\n", "two spaces"),
        ("GET / HTTP/1.1 \r\nHost: x\r\n\r\n", "trailing space"),
        ("G(T / HTTP/1.1\r\nHost: x\r\n\r\n", "bad method byte"),
        ("GET / HTTP/1.x\r\nHost: x\r\n\r\n", "bad version"),
        ("GET / http/1.1\r\nHost: x\r\n\r\n", "lower-case version"),
        ("GET /a\u{7F}b HTTP/1.1\r\nHost: x\r\n\r\n", "DEL in target"),
        ("GET nope HTTP/1.1\r\nHost: x\r\n\r\n", "target not origin-form"),
        ("GET / HTTP/1.1\nHost: x\n\n", "bare LF line ends"),
        ("GET / HTTP/1.1\r\nHost: x\nX: y\r\n\r\n", "bare LF inside"),
        ("GET / HTTP/1.1\r\n\tHost: x\r\n\r\n", "tab before the first header"),
        ("GET / HTTP/1.1\r\nHost: x\r\nX: a\r\n b\r\n\r\n", "obsolete line folding"),
        ("GET / HTTP/1.1\r\nHost: x\r\nContent-Length : 3\r\n\r\nabc", "space before colon"),
        ("GET / HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n", "no colon"),
        ("GET / HTTP/1.1\r\nHost: x\r\n: v\r\n\r\n", "empty name"),
        ("GET / HTTP/1.1\r\nHost: x\r\nX: a\u{01}b\r\n\r\n", "control byte in value"),
        ("GET / HTTP/1.1\r\nHost: x\r\nX: a\rb\r\n\r\n", "bare CR in value"),
        ("GET / HTTP/1.1\r\n\r\n", "HTTP/1.1 without Host"),
        ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", "two Host headers"),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", "CL with TE"),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", "conflicting CL"),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3, 4\r\n\r\nabcd", "conflicting CL list"),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0x10\r\n\r\n", "hex CL"),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: +5\r\n\r\n", "signed CL"),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: \r\n\r\n", "empty CL"),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n", "huge CL"),
        ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, identity\r\n\r\n", "chunked not last"),
        ("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", "TE in HTTP/1.0"),
        ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0_2e\r\n", "0_2e chunk size"),
        ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0x10\r\n", "0x chunk size"),
        ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n", "negative chunk size"),
        ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n\r\n", "empty chunk size"),
        (
            "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\nhello\r\n0\r\n\r\n",
            "bare LF after chunk size"
        ),
        ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloXY0\r\n\r\n", "no CRLF after data"),
        (
            "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffff\r\n",
            "overflowing chunk size"
        ),
        ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nbad trailer\r\n\r\n", "bad trailer"),
        (
            "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1 ;e\r\nz\r\n0\r\n\r\n",
            "space before chunk ext"
        )
    ])
    func rejectsMalformedInputWith400(text: String, what: String) {
        #expect(status(of: text) == 400, "\(what)")
    }

    @Test func rejectsOtherMajorVersionsWith505() {
        #expect(status(of: "GET / HTTP/2.0\r\nHost: x\r\n\r\n") == 505)
    }

    @Test func rejectsUnsupportedTransferCodingsWith501() {
        #expect(status(of: "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n") == 501)
    }

    @Test func acceptsRepeatedEqualContentLengths() throws {
        let request = try #require(
            parseAll("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2, 2\r\nContent-Length: 2\r\n\r\nok").requests.first
        )
        #expect(request.body == Array("ok".utf8))
    }

    /// The framing headers are found by name in any case, whatever else the head holds.
    @Test func findsFramingHeadersInAnyCase() throws {
        let body = try #require(
            parseAll("POST / HTTP/1.1\r\nx-other-name-14: 9\r\nhOST: x\r\ncontent-length: 2\r\n\r\nok").requests.first)
        #expect(body.body == Array("ok".utf8))
        let chunked = try #require(
            parseAll("POST / HTTP/1.1\r\nHOST: x\r\nTRANSFER-ENCODING: Chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n").requests
                .first)
        #expect(chunked.body == Array("ok".utf8))
        #expect(status(of: "GET / HTTP/1.1\r\nhost: a\r\nHOST: b\r\n\r\n") == 400)
        #expect(status(of: "GET / HTTP/1.1\r\nhosts: a\r\n\r\n") == 400)
        #expect(
            status(of: "POST / HTTP/1.1\r\nHost: x\r\ncontent-LENGTH: 1\r\ntransfer-encoding: chunked\r\n\r\n") == 400)
    }

    @Test func staysFailedAfterAnError() {
        var parser = HTTPRequestParser()
        parser.append(Array("BAD\r\n\r\n".utf8))
        #expect(throws: HTTPParseError.self) { try parser.next() }
        parser.append(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(throws: HTTPParseError.self) { try parser.next() }
    }

    // MARK: - A complete request line is judged at once (issue 10 item 9)

    /// `GET /path` and its CRLF with nothing after: no version (HTTP/0.9's form). Answered 400
    /// at once, as nginx and h11 do, not left to wait for headers until the timeout.
    @Test func rejectsARequestLineWithoutAVersionAsSoonAsItEnds() {
        #expect(status(of: "GET /path\r\n") == 400)
        #expect(status(of: "GET\r\n") == 400)
        #expect(status(of: "GET /path HTTP/1.1 extra\r\n") == 400)
    }

    @Test func judgesTheRequestLineWhenItsEndArrivesInPieces() {
        let bytes = Array("GET /path\r\nHost: x\r\n\r\n".utf8)
        // Nothing to say before the line's LF; the error as soon as it is there.
        let early = parseAll(bytes, pieces: [0..<5, 5..<10])
        #expect(early.error == nil)
        let atEnd = parseAll(bytes, pieces: [0..<5, 5..<10, 10..<11])
        #expect(atEnd.error?.status == .badRequest)
    }

    @Test func rejectsABadVersionOrTargetOnTheRequestLineAlone() {
        #expect(status(of: "GET /path HTTP/2.0\r\n") == 505)
        #expect(status(of: "GET /path HTTQ/1.1\r\n") == 400)
        #expect(status(of: "GET path HTTP/1.1\r\n") == 400)
    }

    @Test func aGoodRequestLineWaitsForItsHeaders() throws {
        var parser = HTTPRequestParser()
        parser.append("GET /path HTTP/1.1\r\n".utf8)
        #expect(try parser.next() == nil)
        parser.append("Host: x\r\n".utf8)
        #expect(try parser.next() == nil)
        parser.append("\r\n".utf8)
        #expect(try parser.next()?.path == "/path")
        // The next request's line is judged afresh.
        parser.append("GET /other\r\n".utf8)
        #expect(throws: HTTPParseError.self) { try parser.next() }
    }
}
