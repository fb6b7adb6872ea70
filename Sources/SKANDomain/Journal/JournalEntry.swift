/// One recorded request: the fields the admin filters look at, typed, plus the JSON Lines record
/// serialised once at record time (so queries splice bytes instead of re-encoding). A class, and
/// immutable: the ring, queries and every open console share one copy, at one reference count.
public final class JournalEntry: Sendable {
    public let id: Int64
    /// The tenant whose request this is (`/t/NAME`); nil for the default tenant.
    public let tenant: String?
    public let endpoint: JournalEndpoint?
    public let device: String?
    public let event: String?
    public let window: SKANWindow?
    public let hasIssues: Bool
    /// The JSON object followed by "\n".
    public let line: [UInt8]

    /// An entry read back from a journal file (`--resume`): its line as written (`bytes`, without
    /// the newline), its filter fields from the record read from it.
    public static func restored(_ record: JournalRecord, bytes: [UInt8]) -> JournalEntry {
        JournalEntry(
            id: record.id, tenant: record.tenant, endpoint: record.endpoint, device: record.device, event: record.event,
            window: record.window, hasIssues: !record.issues.isEmpty, line: bytes + [UInt8(ascii: "\n")])
    }

    init(
        id: Int64, tenant: String? = nil, endpoint: JournalEndpoint?, device: String?, event: String?,
        window: SKANWindow?, hasIssues: Bool, line: [UInt8]
    ) {
        self.id = id
        self.tenant = tenant
        self.endpoint = endpoint
        self.device = device
        self.event = event
        self.window = window
        self.hasIssues = hasIssues
        self.line = line
    }

    /// The JSON object text, without the newline.
    public var jsonBytes: ArraySlice<UInt8> { line.dropLast() }

    /// The entry read back as a typed record (the admin report); nil only for a line this
    /// version did not write.
    public var record: JournalRecord? { try? JournalRecord(line: jsonBytes) }

    /// The entry parsed back, for tests and tools.
    public var json: JSONValue { (try? JSONParser.parse(Array(jsonBytes))) ?? .null }

    /// Builds the SPEC 2 record: id, `tenant` (a named tenant's only), time, method, path, endpoint, remote, device, event, params,
    /// skan, window, issues, response {status, body}, duration_us, then any `extra` members. A
    /// postback's device and findings are its own (`postback`), with no `skan` nor `window`.
    static func make(
        id: Int64, timeMilliseconds: Int64, request: SKANRequest, endpoint: JournalEndpoint?,
        outcome: SKANOutcome?, status: Int, body: [UInt8], durationMicros: Int64,
        extra: [JSONMember], tenant: String? = nil, postback: PostbackExchange? = nil
    ) -> JournalEntry {
        let device: String?
        let event: String?
        if let outcome {
            device = outcome.device
            event = outcome.event
        } else if let postback {
            device = postback.device
            event = nil
        } else {
            let common = CommonParameters(request.parameters)
            device = common.device
            event = common.event
        }
        var findings = outcome?.findings ?? postback?.findings ?? []
        let window = outcome?.window
        // Room for the whole line at once (params appear twice: as sent and typed in `skan`), so the
        // buffer never regrows.
        let parameterBytes = request.parameters.byteCount + 8 * request.parameters.count
        var w = JSONWriter(
            capacity: 768 + 2 * body.count + 2 * parameterBytes + request.remote.utf8.count
                + (tenant.map { 16 + $0.utf8.count } ?? 0))
        w.raw("{\"id\":")
        w.write(id)
        if let tenant {
            w.raw(",\"tenant\":")
            w.write(tenant)
        }
        w.raw(",\"time\":\"")
        RFC3339.append(milliseconds: timeMilliseconds, to: &w)
        w.raw("\",\"method\":")
        w.write(request.method)
        w.raw(",\"path\":")
        w.write(request.path)
        w.raw(",\"endpoint\":")
        if let endpoint { w.write(endpoint.rawValue) } else { w.raw("null") }
        w.raw(",\"remote\":")
        w.write(request.remote)
        w.raw(",\"device\":")
        if let device { w.write(device) } else { w.raw("null") }
        w.raw(",\"event\":")
        if let event { w.write(event) } else { w.raw("null") }
        w.raw(",\"params\":")
        var truncated: [(name: String, length: Int)] = []
        writeParams(request.parameters, to: &w, truncated: &truncated)
        findings += truncated.map { cut in
            ValidationFinding(
                param: cut.name, code: .valueTruncated,
                message:
                    "\(cut.name) is \(cut.length) bytes; the journal keeps its first \(maxValueBytes) (the server read all of it)"
            )
        }
        w.raw(",\"skan\":")
        if let skan = outcome?.skan { skan.write(to: &w) } else { w.raw("null") }
        w.raw(",\"window\":")
        if let window { w.write(window.rawValue) } else { w.raw("null") }
        w.raw(",\"issues\":[")
        for (n, finding) in findings.enumerated() {
            if n > 0 { w.raw(",") }
            finding.write(to: &w)
        }
        w.raw("],\"response\":{\"status\":")
        w.write(Int64(status))
        w.raw(",\"body\":")
        w.writeString(bytes: body)
        w.raw("},\"duration_us\":")
        w.write(durationMicros)
        for member in extra {
            w.raw(",")
            w.key(member.key)
            w.write(member.value)
        }
        w.raw("}\n")
        // Exactly its size: 10,000 lines stay in memory.
        let line = w.bytes
        return JournalEntry(
            id: id, tenant: tenant, endpoint: endpoint, device: device, event: event, window: window,
            hasIssues: !findings.isEmpty, line: line)
    }

    /// `writeParams` when the caller does not need to know what was cut.
    static func writeParams(_ parameters: RequestParameters, to w: inout JSONWriter) {
        var truncated: [(name: String, length: Int)] = []
        writeParams(parameters, to: &w, truncated: &truncated)
    }

    /// The most of one parameter's value a journal entry keeps: a 1 MiB form field must not make
    /// a 1 MiB entry, ten thousand times over.
    public static let maxValueBytes = 4096

    /// Every parameter as received: name -> string, or name -> [strings] in order when it repeats.
    /// Parameters the server added (a route alias's) are not among them. A value over
    /// `maxValueBytes` is cut there (at a character's start), and its name and full length are
    /// added to `truncated`.
    static func writeParams(
        _ parameters: RequestParameters, to w: inout JSONWriter,
        truncated: inout [(name: String, length: Int)]
    ) {
        let fields = parameters.sentFields
        parameters.bytes.withUnsafeBufferPointer { bytes in
            func text(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: bytes[range]) }
            func value(_ field: RequestParameters.Field) -> UnsafeBufferPointer<UInt8> {
                let range = field.value
                guard range.count > maxValueBytes else { return text(range) }
                var end = range.lowerBound + maxValueBytes
                while end > range.lowerBound && bytes[end] & 0xC0 == 0x80 { end -= 1 }
                truncated.append((String(decoding: text(field.name), as: UTF8.self), range.count))
                return text(range.lowerBound..<end)
            }
            w.raw("{")
            if parameters.distinctSentNames == fields.count {
                // No name repeats (the usual case): no need to group.
                for (n, field) in fields.enumerated() {
                    if n > 0 { w.raw(",") }
                    w.writeMember(utf8: text(field.name), value(field))
                }
                w.raw("}")
                return
            }
            let groups = RepeatedNames(names: fields.map(\.name), bytes: bytes)
            var first = true
            for i in fields.indices where groups.isFirst[i] {
                if !first { w.raw(",") }
                first = false
                w.write(utf8: text(fields[i].name))
                w.raw(":")
                var j = Int(groups.next[i])
                if j < 0 {
                    w.write(utf8: value(fields[i]))
                    continue
                }
                w.raw("[")
                w.write(utf8: value(fields[i]))
                while j >= 0 {
                    w.raw(",")
                    w.write(utf8: value(fields[j]))
                    j = Int(groups.next[j])
                }
                w.raw("]")
            }
            w.raw("}")
        }
    }
}
