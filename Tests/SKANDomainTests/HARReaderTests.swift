import Testing

@testable import SKANDomain

/// Reading HAR captures without holding them: entries found only at `log.entries` and cut out
/// whole across any chunk boundary, strings that hold brackets and quotes, the file-level
/// problems (not JSON, empty, no entries, cut short), the times tools write, and each entry's
/// fields (base64 bodies, missing fields named by their JSON path, URLs split).
@Suite struct HARReaderTests {
    private func items(_ text: String, step: Int = 1 << 20) throws -> (
        entries: [String], other: [String], problem: String?
    ) {
        var reader = HARStreamReader(JournalFileReaderTests.Trickle(bytes: Array(text.utf8), step: step))
        var entries: [String] = []
        var other: [String] = []
        while let item = try reader.next() {
            switch item {
            case .entry(let index, let bytes): entries.append("\(index):" + String(decoding: bytes, as: UTF8.self))
            case .tooLarge(let index): other.append("large \(index)")
            case .cut(let index): other.append("cut \(index)")
            }
        }
        return (entries, other, reader.problem)
    }

    @Test func entriesAreCutOutWholeAtAnyChunkSize() throws {
        let text = """
            \u{FEFF}{"log":{"version":"1.2","creator":{"name":"x","entries":[{"no":1}]},"pages":[{"title":"a]}\\"["}],
            "entries":[ {"a":"}]\\\\","b":[1,{"c":2}]} ,{"d":"x"},3,"s",[1]],"comment":"entries"}}
            """
        for step in [1, 2, 3, 7, 64, 1 << 20] {
            let read = try items(text, step: step)
            #expect(read.entries == [#"0:{"a":"}]\\","b":[1,{"c":2}]}"#, #"1:{"d":"x"}"#, "2:3", #"3:"s""#, "4:[1]"])
            #expect(read.other.isEmpty)
            #expect(read.problem == nil)
        }
    }

    @Test func aKeyNamedLikeOursElsewhereIsNotTheEntries() throws {
        let read = try items(#"{"entries":[{"x":1}],"log":{"pages":[],"creator":{"log":{"entries":[{"y":2}]}}}}"#)
        #expect(read.entries.isEmpty)
        #expect(read.problem?.contains("no log.entries") == true)
    }

    @Test func fileProblems() throws {
        #expect(try items("").problem == "the file is empty, so not a HAR capture")
        #expect(try items("  <html>").problem?.hasPrefix("not JSON: it starts with '<'") == true)
        #expect(try items(#"{"log":{"entries":[]}}"#).problem == nil)
        let cut = try items(#"{"log":{"entries":[{"a":1},{"b":"#, step: 5)
        #expect(cut.entries == [#"0:{"a":1}"#])
        #expect(cut.other == ["cut 1"])
        #expect(cut.problem?.contains("cut short") == true)
        // Cut between entries: no entry is cut, the file is.
        let between = try items(#"{"log":{"entries":[{"a":1},"#)
        #expect(between.other.isEmpty)
        #expect(between.problem?.contains("cut short") == true)
    }

    @Test func times() {
        #expect(HARTime.parse("2026-11-28T13:36:54.142362+00:00") == RFC3339.parse("2026-11-28T13:36:54.142Z"))
        #expect(HARTime.parse("2026-11-28T14:36:54.1+01:00") == RFC3339.parse("2026-11-28T13:36:54.100Z"))
        #expect(HARTime.parse("2026-11-28T08:36:54-0500") == RFC3339.parse("2026-11-28T13:36:54.000Z"))
        #expect(HARTime.parse("2026-11-28T13:36:54Z") == RFC3339.parse("2026-11-28T13:36:54.000Z"))
        #expect(HARTime.parse("2026-11-28T13:36:54.") == nil)
        #expect(HARTime.parse("2026-11-28 13:36:54Z") == nil)
        #expect(HARTime.parse("yesterday") == nil)
    }

    private func exchange(_ text: String) throws(HARExchange.Problem) -> HARExchange {
        try HARExchange(json: (try? JSONParser.parse(text)) ?? .null, index: 0)
    }

    @Test func anEntryReadWithBase64Bodies() throws {
        let entry = try exchange(
            #"{"startedDateTime":"2026-11-28T13:00:00.000Z","time":12.5,"request":{"method":"POST","url":"HTTPS://h.example:8443/api/v1/evt?a=1&b=2#frag","headers":[{"name":"Content-Type","value":"application/x-www-form-urlencoded"}],"postData":{"mimeType":"x","text":"aT1h","encoding":"base64"}},"response":{"status":200,"content":{"text":"e30=","encoding":"base64"}}}"#
        )
        #expect(entry.origin == "HTTPS://h.example:8443")
        #expect(entry.path == "/api/v1/evt")
        #expect(entry.query == "a=1&b=2")
        #expect(entry.requestBody == Array("i=a".utf8))
        #expect(entry.responseBody == Array("{}".utf8))
        #expect(entry.requestHeader("content-type") == "application/x-www-form-urlencoded")
        #expect(entry.durationMilliseconds == 12.5)
        let noBody = try exchange(
            #"{"startedDateTime":"2026-11-28T13:00:00Z","request":{"method":"GET","url":"http://h"},"response":{"status":0,"content":{"size":0}}}"#
        )
        #expect(noBody.path == "/")
        #expect(noBody.responseBody == nil)
    }

    @Test func problemsNameTheirPath() {
        func problem(_ text: String) -> String? {
            do {
                _ = try exchange(text)
                return nil
            } catch {
                return error.description
            }
        }
        let time = #""startedDateTime":"2026-11-28T13:00:00Z""#
        #expect(problem("[1]") == "$: expected an object, found array")
        #expect(problem(#"{"request":{}}"#) == "$.startedDateTime: missing")
        #expect(problem(#"{"startedDateTime":"noon"}"#) == "$.startedDateTime: not an ISO 8601 time: noon")
        #expect(problem("{\(time)}") == "$.request: missing")
        #expect(problem(#"{\#(time),"request":{"method":"GET"}}"#) == "$.request.url: missing")
        #expect(
            problem(#"{\#(time),"request":{"method":"GET","url":"ftp://x/"}}"#)
                == "$.request.url: not an absolute http(s) URL: ftp://x/")
        #expect(problem(#"{\#(time),"request":{"method":"GET","url":"http://x/"}}"#) == "$.response: missing")
        #expect(
            problem(#"{\#(time),"request":{"method":"GET","url":"http://x/"},"response":{"status":"200"}}"#)
                == "$.response.status: missing, or not an HTTP status")
        #expect(
            problem(
                #"{\#(time),"request":{"method":"GET","url":"http://x/"},"response":{"status":200,"content":{"text":"%%","encoding":"base64"}}}"#
            ) == "$.response.content.text: encoding is base64 but the text is not base64")
        #expect(
            problem(
                #"{\#(time),"request":{"method":"GET","url":"http://x/"},"response":{"status":200,"content":{"text":"x","encoding":"gzip"}}}"#
            ) == "$.response.content.encoding: gzip is not an encoding HAR tools write (base64, or none)")
    }
}
