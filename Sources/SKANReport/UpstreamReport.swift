import SKANDomain

/// A journal of an `--upstream` run summed up: per endpoint and window, how many answers matched
/// the upstream's and how many did not, with the first examples of each kind (the model's answer
/// beside the upstream's, and the request's id and device). The one place `skan-mock compare` and
/// `GET /__admin/report` build it; pure, so it is tested without sockets or files.
public struct UpstreamReport: Sendable, Equatable {
    /// The answers of one endpoint in one window (`-` for none).
    public struct Group: Sendable, Equatable {
        public var endpoint: String
        public var window: String
        public var matched = 0
        public var differed = 0
        /// No answer from the upstream (timeout, unreachable, or not sent).
        public var failed = 0

        public var compared: Int { matched + differed + failed }
    }

    /// One request whose answers did not match, or whose upstream did not answer.
    public struct Example: Sendable, Equatable {
        public var requestId: Int64?
        public var device: String?
        public var endpoint: String
        public var window: String
        /// `differs_from_upstream`, or one of the upstream's failures (`FindingCode.upstreamFailures`).
        public var kind: String
        public var model: String
        public var upstream: String
        public var message: String
    }

    /// Examples kept per kind.
    public static let examplesPerKind = 3
    /// The kinds in the order the summary shows them, named by the finding codes the server writes.
    static let kinds = FindingCode.upstreamComparison.map(\.rawValue)

    public var groups: [Group] = []
    public var examples: [Example] = []
    /// Entries of the journal that were not compared (no `upstream`: a run without `--upstream`,
    /// or a request refused before it was sent on).
    public var notCompared = 0
    public var unreadableLines: [JournalReport.UnreadableLine] = []

    public var matched: Int { groups.reduce(0) { $0 + $1.matched } }
    public var differed: Int { groups.reduce(0) { $0 + $1.differed } }
    public var failed: Int { groups.reduce(0) { $0 + $1.failed } }
    public var compared: Int { matched + differed + failed }
    /// Whether CI should fail (`--fail-on-differences`): a difference, an upstream that did not
    /// answer, or a line that is not a journal entry.
    public var hasDifferences: Bool { differed > 0 || failed > 0 || !unreadableLines.isEmpty }

    public init() {}

    /// Journal entries as the journal holds them (the admin route).
    public init(records: [JournalRecord]) {
        for record in records { add(record) }
    }

    /// A JSON Lines journal held in memory; a line that is not an entry is listed, never fatal.
    public init(jsonLines bytes: [UInt8]) {
        var reader = JournalFileReader(InMemoryJournalSource(bytes))
        // An in-memory source cannot fail.
        while let line = try? reader.next() { add(line) }
    }

    /// A journal file, read as a stream (`skan-mock compare`).
    public static func read<Source: JournalSource>(_ reader: inout JournalFileReader<Source>)
        throws(JournalReadError) -> UpstreamReport
    {
        var report = UpstreamReport()
        while let line = try reader.next() { report.add(line) }
        return report
    }

    /// Takes one line of a journal file; reset markers are passed over.
    public mutating func add(_ line: JournalLine) {
        switch line {
        case .entry(let record, _, _): add(record)
        case .reset: break
        case .skipped(let failure):
            unreadableLines.append(JournalReport.UnreadableLine(line: failure.line ?? 0, reason: failure.reason))
        }
    }

    public mutating func add(_ record: JournalRecord) {
        guard let upstream = record.upstream else {
            notCompared += 1
            return
        }
        let endpoint = record.endpoint?.rawValue ?? JournalEndpoint.unmatched.rawValue
        let window = record.window?.rawValue ?? "-"
        let issue = record.issues.first { FindingCode.upstreamComparison.contains($0.code) }
        // The upstream's own record decides: an entry whose upstream failed never counts as a match,
        // whatever finding it carries (a code this version does not know, or none).
        var kind = issue?.code
        if case .failed(let error, _, _) = upstream, kind == nil || kind == .differsFromUpstream {
            kind = UpstreamFailure(rawValue: error)?.findingCode ?? FindingCode(rawValue: "upstream_" + error)
        }
        let position =
            groups.firstIndex { $0.endpoint == endpoint && $0.window == window }
            ?? {
                groups.append(Group(endpoint: endpoint, window: window))
                return groups.count - 1
            }()
        switch kind {
        case nil: groups[position].matched += 1
        case .differsFromUpstream?: groups[position].differed += 1
        default: groups[position].failed += 1
        }
        guard let kind = kind?.rawValue, examples.filter({ $0.kind == kind }).count < Self.examplesPerKind else {
            return
        }
        // Shadow: the client got the model's answer (`response`); proxy: the upstream's, and the
        // model's is in `model`.
        let model = (record.model ?? record.response).text
        let theirs: String
        switch upstream {
        case .answered(let answer, _): theirs = answer.text
        case .failed(let error, _, _): theirs = error
        }
        examples.append(
            Example(
                requestId: record.id, device: record.device, endpoint: endpoint, window: window, kind: kind,
                model: model, upstream: theirs, message: issue?.message ?? ""))
    }

    /// The summary for a terminal.
    public var text: String {
        var lines = [
            "\(compared) \(compared == 1 ? "answer" : "answers") compared with the upstream: \(matched) matched, \(differed) differed, \(failed) without an upstream answer"
                + (notCompared > 0 ? " (\(notCompared) not compared)" : "")
        ]
        for group in groups.sorted(by: { ($0.endpoint, $0.window) < ($1.endpoint, $1.window) }) {
            lines.append(
                "\(group.endpoint) \(group.window): \(group.compared) compared, \(group.matched) matched, \(group.differed) differed, \(group.failed) without an upstream answer"
            )
        }
        let known = Set(Self.kinds)
        let others = Set(examples.map(\.kind)).subtracting(known).sorted()
        for kind in Self.kinds + others {
            let shown = examples.filter { $0.kind == kind }
            guard !shown.isEmpty else { continue }
            lines.append("\(kind):")
            for example in shown {
                lines.append(
                    "  #\(example.requestId.map(String.init) ?? "?") \(example.device ?? JournalReport.noDevice) \(example.endpoint) \(example.window): \(example.message)"
                )
                lines.append("    model:    \(example.model)")
                lines.append("    upstream: \(example.upstream)")
            }
        }
        for line in unreadableLines { lines.append("line \(line.line): \(line.reason)") }
        return lines.joined(separator: "\n")
    }

    /// The summary as JSON (`skan-mock compare --json`, and `upstream` in `GET /__admin/report`).
    public var json: JSONValue {
        .object([
            JSONMember("compared", .int(Int64(compared))), JSONMember("matched", .int(Int64(matched))),
            JSONMember("differed", .int(Int64(differed))), JSONMember("failed", .int(Int64(failed))),
            JSONMember("not_compared", .int(Int64(notCompared))),
            JSONMember(
                "groups",
                .array(
                    groups.map { group in
                        .object([
                            JSONMember("endpoint", .string(group.endpoint)),
                            JSONMember("window", .string(group.window)),
                            JSONMember("compared", .int(Int64(group.compared))),
                            JSONMember("matched", .int(Int64(group.matched))),
                            JSONMember("differed", .int(Int64(group.differed))),
                            JSONMember("failed", .int(Int64(group.failed)))
                        ])
                    })),
            JSONMember(
                "examples",
                .array(
                    examples.map { example in
                        .object([
                            JSONMember("id", example.requestId.map { .int($0) } ?? .null),
                            JSONMember("device", example.device.map { .string($0) } ?? .null),
                            JSONMember("endpoint", .string(example.endpoint)),
                            JSONMember("window", .string(example.window)),
                            JSONMember("kind", .string(example.kind)), JSONMember("message", .string(example.message)),
                            JSONMember("model", .string(example.model)),
                            JSONMember("upstream", .string(example.upstream))
                        ])
                    }))
        ])
    }
}
