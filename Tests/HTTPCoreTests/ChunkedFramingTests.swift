import Testing

@testable import HTTPCore

/// A chunked body's framing is the client's bytes too (issue 43.8): 1-byte chunks with 4 KB
/// extensions held 764 MiB for one connection while the body stayed under 1 MiB. Framing counts
/// against the body limit, and what the decoder consumed is dropped as it goes.
@Suite("Chunked framing")
struct ChunkedFramingTests {
    private let head = "POST /f HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"

    @Test func extensionsCountAgainstTheBodyLimit() throws {
        var limits = HTTPLimits()
        limits.maxBodyBytes = 64 * 1024
        var parser = HTTPRequestParser(limits: limits)
        parser.append(Array(head.utf8))
        // 1,000 bytes of body in 100 KB of framing.
        let chunk = Array(("1;e=" + String(repeating: "x", count: 96) + "\r\nX\r\n").utf8)
        var status: Int?
        for _ in 0..<1000 where status == nil {
            parser.append(chunk)
            do { _ = try parser.next() } catch { status = error.status.code }
        }
        #expect(status == 413)
    }

    @Test func aBodyOfSmallChunksHoldsOnlyWhatIsNotConsumedYet() throws {
        var parser = HTTPRequestParser()
        parser.append(Array(head.utf8))
        let chunk = Array("1\r\nX\r\n".utf8)
        var held = 0
        for _ in 0..<20_000 {
            parser.append(chunk)
            #expect(try parser.next() == nil)
            held = max(held, parser.bufferedByteCount)
        }
        // 120,000 bytes of framing and data arrived; the consumed ones are gone.
        #expect(held <= 16 * 1024 + chunk.count)
        parser.append(Array("0\r\n\r\n".utf8))
        let request = try #require(try parser.next())
        #expect(request.body == [UInt8](repeating: UInt8(ascii: "X"), count: 20_000))
        #expect(parser.bufferedByteCount == 0)
    }

    @Test func framingAtTheLimitIsStillRead() throws {
        var limits = HTTPLimits()
        limits.maxBodyBytes = 20
        // "5\r\nabcde\r\n" is 10 bytes, "0\r\n\r\n" 5: 15 in all.
        var parser = HTTPRequestParser(limits: limits)
        parser.append(Array((head + "5\r\nabcde\r\n0\r\n\r\n").utf8))
        #expect(try parser.next()?.body == Array("abcde".utf8))
        var over = HTTPRequestParser(limits: limits)
        over.append(Array((head + "5\r\nabcde\r\n5\r\nfghij\r\n0\r\n\r\n").utf8))
        #expect(throws: HTTPParseError.self) { try over.next() }
    }
}
