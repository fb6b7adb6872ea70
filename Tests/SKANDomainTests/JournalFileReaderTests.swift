import Testing

@testable import SKANDomain

/// The one journal-file reader: lines across chunk boundaries, a torn or whole last line, blank
/// and CRLF lines, a line past the limit, reset markers, and the offsets `--resume` cuts at.
@Suite struct JournalFileReaderTests {
    /// Gives at most `step` bytes per read, to cut lines anywhere.
    struct Trickle: JournalSource {
        var bytes: [UInt8]
        var step: Int
        var offset = 0

        mutating func read(appendingTo buffer: inout [UInt8], count: Int) -> Int {
            let end = min(bytes.count, offset + min(step, count))
            buffer.append(contentsOf: bytes[offset..<end])
            defer { offset = end }
            return end - offset
        }
    }

    struct Failing: JournalSource {
        mutating func read(appendingTo buffer: inout [UInt8], count: Int) throws(JournalReadError) -> Int {
            throw JournalReadError(.io, line: nil, reason: "cannot read j.jsonl: Input/output error")
        }
    }

    private func lines(_ text: String, step: Int = 1 << 20) throws -> [String] {
        var reader = JournalFileReader(Trickle(bytes: Array(text.utf8), step: step))
        var out: [String] = []
        while let line = try reader.next() {
            switch line {
            case .entry(let record, let bytes, let number):
                #expect(String(decoding: bytes, as: UTF8.self).contains("\"id\":\(record.id)"))
                out.append("\(number):entry \(record.id)")
            case .reset(let marker, let number): out.append("\(number):reset \(marker.through)")
            case .skipped(let failure): out.append("\(failure.line ?? 0):\(failure.kind)")
            }
        }
        return out
    }

    static let file = """
        {"id":1,"device":"A"}
        \r
        {"id":2,"device":"A"}\r
        not json
        {"type":"reset","through":2,"devices":true}

        {"device":"no id"}
        {"id":3,"device":"A"}
        """

    @Test(arguments: [1, 2, 7, 64, 1 << 20])
    func linesAreTheSameWhateverTheChunks(step: Int) throws {
        #expect(
            try lines(Self.file, step: step) == [
                "1:entry 1", "3:entry 2", "4:unreadable", "5:reset 2", "7:unreadable", "8:entry 3"
            ])
    }

    @Test func aLastLineWithoutItsNewlineIsAnEntryWhenWholeAndTornWhenNot() throws {
        #expect(try lines(#"{"id":1}"# + "\n" + #"{"id":2}"#) == ["1:entry 1", "2:entry 2"])
        #expect(try lines(#"{"id":1}"# + "\n" + #"{"id":2,"dev"#) == ["1:entry 1", "2:torn"])
        #expect(try lines(#"{"id":1}"# + "\n" + #"{"id":2,"dev"# + "\n") == ["1:entry 1", "2:unreadable"])
    }

    @Test func offsetsSayWhereTheLastLineStarts() throws {
        let text = #"{"id":1}"# + "\n" + #"{"id":2,"#
        var reader = JournalFileReader(Trickle(bytes: Array(text.utf8), step: 3))
        _ = try reader.next()
        #expect(reader.offset == 9)
        #expect(!reader.lastLineUnterminated)
        _ = try reader.next()
        #expect(reader.lastLineStart == 9)
        #expect(reader.lastLineUnterminated)
        #expect(reader.offset == Int64(text.utf8.count))
        #expect(try reader.next() == nil)
    }

    @Test func aLineLongerThanTheLimitIsSkippedWithoutHoldingIt() throws {
        let long =
            "{\"id\":1,\"x\":\"" + String(repeating: "a", count: JournalFileReader<Trickle>.maxLineBytes + 10) + "\"}"
        let text = long + "\n" + #"{"id":2}"# + "\n"
        let read = try lines(text, step: 1 << 20)
        #expect(read == ["1:tooLong", "2:entry 2"])
        var reader = JournalFileReader(Trickle(bytes: Array(text.utf8), step: 1 << 20))
        _ = try reader.next()
        #expect(reader.lastLineStart == 0)
        #expect(reader.offset == Int64(long.utf8.count + 1))
    }

    @Test func aFileThatCannotBeReadIsTheError() {
        var reader = JournalFileReader(Failing())
        #expect(throws: JournalReadError(.io, line: nil, reason: "cannot read j.jsonl: Input/output error")) {
            _ = try reader.next()
        }
    }

    /// `report`, `record` and `compare --tenant`: one tenant's entries and markers, the others'
    /// counted.
    @Test func oneTenantsLinesAreHandedBack() throws {
        let text = """
            {"id":1,"tenant":"a"}
            {"id":2}
            {"type":"reset","through":2,"devices":true,"tenant":"a"}
            {"type":"reset","through":2,"devices":true}
            {"id":3,"tenant":"b"}
            {"id":4,"tenant":"a"}

            """
        for (scope, expected, others) in [
            (JournalFilter.TenantScope.only("a"), [1, -2, 4] as [Int64], 3), (.only(nil), [2, -2], 4),
            (.all, [1, 2, -2, -2, 3, 4], 0)
        ] {
            var reader = JournalFileReader(Trickle(bytes: Array(text.utf8), step: 7))
            reader.tenant = scope
            var ids: [Int64] = []
            while let line = try reader.next() {
                switch line {
                case .entry(let record, _, _): ids.append(record.id)
                case .reset(let marker, _): ids.append(-marker.through)
                case .skipped: ids.append(0)
                }
            }
            #expect(ids == expected)
            #expect(reader.otherTenantLines == others)
        }
    }

    /// A `--tenant` no line names is told apart from a tenant that sent nothing: the reader counts
    /// the lines it handed back and names the tenants it passed over (issue 47.9).
    @Test func theTenantsPassedOverAreNamed() throws {
        let text = """
            {"id":1,"tenant":"qa"}
            {"id":2}
            {"type":"reset","through":2,"devices":true,"tenant":"ci"}
            {"id":3,"tenant":"qa"}
            {broken

            """
        var reader = JournalFileReader(Trickle(bytes: Array(text.utf8), step: 5))
        reader.tenant = .only("q")
        while try reader.next() != nil {}
        #expect(reader.tenantLines == 0)
        #expect(reader.otherTenants == ["qa", nil, "ci"])
        #expect(!reader.moreOtherTenants)

        reader = JournalFileReader(Trickle(bytes: Array(text.utf8), step: 5))
        reader.tenant = .only("qa")
        while try reader.next() != nil {}
        #expect(reader.tenantLines == 2)
        #expect(reader.otherTenants == [nil, "ci"])
    }

    /// A file of more tenants than are named keeps the first ones and says there are more.
    @Test func theTenantsNamedAreBounded() throws {
        let count = JournalFileReader<InMemoryJournalSource>.maxOtherTenantsNamed + 3
        let text = (0..<count).map { #"{"id":\#($0 + 1),"tenant":"t\#($0)"}"# }.joined(separator: "\n") + "\n"
        var reader = JournalFileReader(InMemoryJournalSource(Array(text.utf8)))
        reader.tenant = .only("other")
        while try reader.next() != nil {}
        #expect(reader.otherTenants.count == JournalFileReader<InMemoryJournalSource>.maxOtherTenantsNamed)
        #expect(reader.otherTenants.first == "t0")
        #expect(reader.moreOtherTenants)
        #expect(reader.otherTenantLines == count)
    }
}
