import Testing

@testable import HTTPCore

/// Cases from the differential test against h11 (Tests/Differential), kept here so the root suite
/// checks them without Python: the ones where we accepted what h11 rejects and were fixed, and a
/// sample of the HTTP Garden's parser bugs both parsers reject.
@Suite("HTTPRequestParser differential cases")
struct DifferentialCasesTests {
    private func status(_ bytes: [UInt8]) -> Int {
        var parser = HTTPRequestParser()
        parser.append(bytes)
        do {
            var accepted = 0
            while try parser.next() != nil { accepted += 1 }
            return accepted > 0 ? 200 : 0
        } catch {
            return error.status.code
        }
    }

    private func status(_ text: String) -> Int { status(Array(text.utf8)) }

    private let chunkedHead = "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"

    /// trailer-invalid-content-length, trailer-transfer-encoding-gzip: h11 rejected them (it checks
    /// framing fields in trailers like headers); we dropped trailers unread. Framing fields are not
    /// allowed in trailers (RFC 9110 §6.5.1), so any Content-Length or Transfer-Encoding there is a 400.
    @Test(arguments: [
        "Content-Length: abc", "Content-Length: 5", "content-length: 0",
        "Transfer-Encoding: gzip", "TRANSFER-ENCODING: chunked"
    ])
    func framingFieldInTrailerIsRejected(_ trailer: String) {
        #expect(status(chunkedHead + "5\r\nhello\r\n0\r\n\(trailer)\r\n\r\n") == 400)
    }

    @Test func otherTrailersAreStillAccepted() {
        #expect(status(chunkedHead + "5\r\nhello\r\n0\r\nX-Checksum: 1\r\nServer-Timing: a;dur=1\r\n\r\n") == 200)
    }

    /// HTTP Garden cases h11 rejects with 400; so do we.
    @Test(arguments: [
        "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0_2e\r\n" + String(repeating: "a", count: 46)
            + "\r\n0\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0x10\r\n" + String(repeating: "a", count: 16)
            + "\r\n0\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\nhello\r\n0\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n+5\r\nhello\r\n0\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\n\r\n",
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Length : 34\r\n\r\n" + String(repeating: "a", count: 34),
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: +5\r\n\r\nhello",
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0x10\r\n\r\n" + String(repeating: "a", count: 16),
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 5\r\n\r\nhello",
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: \u{0B}5\r\n\r\nhello",
        "GET / HTTP/1.1\r\n\tHost: x\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\u{0}b\r\n\r\n",
        "G ET / HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET / HTTP/1.1\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
        "GET / HTTP/1.10\r\nHost: x\r\n\r\n"
    ])
    func httpGardenCasesAreRejectedWith400(_ request: String) {
        #expect(status(request) == 400)
    }

    /// Unsupported transfer codings: h11 answers 501, as we do when chunked is last.
    @Test func unsupportedCodingIs501() {
        #expect(status("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n") == 501)
    }
}

/// h11 rejects bytes that cannot start a request line at once (its "obviously invalid request line");
/// we used to wait for the end of a head that never comes (then 414 or the header timeout). Found by
/// running the differential test over the HTTP fuzzer's corpus.
@Suite("HTTPRequestParser early rejection")
struct EarlyRejectionTests {
    private func firstResult(_ bytes: [UInt8]) -> Result<HTTPRequest?, HTTPParseError> {
        var parser = HTTPRequestParser()
        parser.append(bytes)
        return Result { () throws(HTTPParseError) -> HTTPRequest? in try parser.next() }
    }

    @Test(
        arguments: [
            [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03],  // TLS ClientHello
            [0x00, 0x00, 0x00, 0x00, 0x09],
            [0x0D, 0x00, 0x00, 0x00],  // CR then not LF
            [0x0D, 0x0A, 0x0D, 0x1A],  // an empty line, then CR then not LF
            [0x0D, 0x0A],  // an empty line before the request line (h11 rejects it too)
            Array(" GET / HTTP/1.1".utf8),
            Array("\tGET".utf8),
            [0xFF, 0x47, 0x45, 0x54]
        ] as [[UInt8]])
    func bytesThatCannotStartARequestAreRejectedAtOnce(_ bytes: [UInt8]) {
        switch firstResult(bytes) {
        case .failure(let error): #expect(error.status.code == 400)
        case .success(let request): Issue.record("expected 400 at once, got \(String(describing: request))")
        }
    }

    @Test(arguments: ["G", "GET", "GET / HTTP/1.1\r", "GET / HTTP/1.1\r\nHost: x\r\n\r"])
    func prefixesOfAValidRequestWait(_ text: String) {
        switch firstResult(Array(text.utf8)) {
        case .success(let request): #expect(request == nil)
        case .failure(let error): Issue.record("\(text.debugDescription) rejected: \(error)")
        }
    }

    @Test func garbageAfterAPipelinedRequestIsRejectedAfterIt() throws {
        var parser = HTTPRequestParser()
        parser.append(Array("GET /a HTTP/1.1\r\nHost: x\r\n\r\n\u{0}\u{0}".utf8))
        #expect(try parser.next()?.target == "/a")
        #expect(throws: HTTPParseError.self) { try parser.next() }
    }
}
