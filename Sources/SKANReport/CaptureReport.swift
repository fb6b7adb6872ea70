import SKANDomain

/// What a HAR capture of a release build adds up to (`skan-mock check CAPTURE.har`): the requests
/// to Singular's endpoints judged as a live request is, summed up per device with the postbacks
/// Apple would send (`JournalReport`, the same as `skan-mock report`), the other entries counted,
/// and every entry that could not be read named by its index and URL. With the team's model, how
/// its answers compared with Singular's (`UpstreamReport`, as `skan-mock compare`). Pure: the
/// entries come from any `JournalSource`, the judging from the caller.
public struct CaptureReport: Sendable {
    /// An entry that could not be used, or (entry nil) the capture as a whole.
    public struct Problem: Sendable, Equatable {
        /// The entry's place in `log.entries`, from 1 (as findings' `#N` and HAR viewers count).
        public var entry: Int?
        public var url: String?
        public var reason: String

        init(index: Int?, url: String?, reason: String) {
            entry = index.map { $0 + 1 }
            self.url = url
            self.reason = reason
        }

        /// `entry 3 (https://...): $.request.url: missing`
        public var line: String {
            guard let entry else { return reason }
            return "entry \(entry)" + (url.map { " (\($0))" } ?? "") + ": " + reason
        }
    }

    /// Entries in the capture, read or not.
    public var entries = 0
    /// Entries to Singular's endpoints (or a `--route` alias), judged.
    public var singular = 0
    /// Entries to anything else, left alone.
    public var others = 0
    public var problems: [Problem] = []
    public var journal = JournalReport()
    /// With a model: Singular's answers compared with it.
    public var upstream: UpstreamReport?

    public init() {}

    /// Whether CI should fail: a finding, an entry that could not be read, or (with a model) an
    /// answer of Singular's the model would not give.
    public var hasProblems: Bool {
        journal.hasProblems || !problems.isEmpty || (upstream?.hasDifferences ?? false)
    }

    /// Reads a capture: every entry of `reader`, those `isSingular` says are Singular's put in
    /// the capture's time order (ties in the capture's own order) and judged by `judge` (which
    /// numbers each by `index + 1`, its place in the file), then summed up. `model` reads what the
    /// postbacks' values mean. Memory: one entry at a time, plus Singular's entries.
    public static func read<Source: JournalSource>(
        _ reader: inout HARStreamReader<Source>, model: ConversionModel?, compared: Bool,
        isSingular: (HARExchange) -> Bool, judge: (HARExchange) -> JournalRecord?
    ) throws(JournalReadError) -> CaptureReport {
        var (report, records) = try judged(&reader, isSingular: isSingular, judge: judge)
        report.journal = JournalReport.read(records: records, model: model)
        if compared { report.upstream = UpstreamReport(records: records) }
        return report
    }

    /// The capture's entries counted and Singular's judged, in time order, as journal entries
    /// (for `read`, and for `skan-mock record CAPTURE.har`); the report has no summary yet.
    public static func judged<Source: JournalSource>(
        _ reader: inout HARStreamReader<Source>, isSingular: (HARExchange) -> Bool,
        judge: (HARExchange) -> JournalRecord?
    ) throws(JournalReadError) -> (CaptureReport, [JournalRecord]) {
        var report = CaptureReport()
        var kept: [HARExchange] = []
        while let item = try reader.next() {
            report.entries += 1
            switch item {
            case .tooLarge(let index):
                report.problems.append(
                    Problem(
                        index: index, url: nil,
                        reason:
                            "longer than \(HARStreamReader<Source>.maxEntryBytes >> 20) MiB, so passed over unread"))
            case .cut(let index):
                report.problems.append(Problem(index: index, url: nil, reason: "cut short where the file ends"))
            case .entry(let index, let bytes):
                let json: JSONValue
                do {
                    json = try JSONParser.parse(bytes)
                } catch {
                    report.problems.append(Problem(index: index, url: nil, reason: "not JSON: \(error.description)"))
                    continue
                }
                do {
                    let exchange = try HARExchange(json: json, index: index)
                    if isSingular(exchange) {
                        kept.append(exchange)
                    } else {
                        report.others += 1
                    }
                } catch {
                    report.problems.append(
                        Problem(index: index, url: HARExchange.url(in: json), reason: error.description))
                }
            }
        }
        if let problem = reader.problem { report.problems.append(Problem(index: nil, url: nil, reason: problem)) }
        report.singular = kept.count
        // The capture's time order, as the devices lived it; a tool may list entries otherwise.
        let ordered = kept.enumerated().sorted {
            $0.element.started != $1.element.started ? $0.element.started < $1.element.started : $0.offset < $1.offset
        }
        var records: [JournalRecord] = []
        records.reserveCapacity(ordered.count)
        for (_, exchange) in ordered {
            if let record = judge(exchange) { records.append(record) }
        }
        return (report, records)
    }
}

extension CaptureReport {
    /// `skan-mock check --json`: the capture's counts, the report of `skan-mock report --json`,
    /// and with a model the comparison of `skan-mock compare --json`.
    public var json: JSONValue {
        var members: [JSONMember] = [
            JSONMember("entries", .int(Int64(entries))),
            JSONMember("singular", .int(Int64(singular))),
            JSONMember("others", .int(Int64(others))),
            JSONMember(
                "problems",
                .array(
                    problems.map {
                        [
                            "entry": $0.entry.map { .int(Int64($0)) } ?? .null,
                            "url": $0.url.map { .string($0) } ?? .null, "reason": .string($0.reason)
                        ]
                    })),
            JSONMember("report", journal.json)
        ]
        if let upstream { members.append(JSONMember("compared", upstream.json)) }
        return .object(members)
    }

    /// For people: the counts, each problem, the report per device, then the comparison.
    public var text: String {
        var lines = [
            "capture: \(entries) \(entries == 1 ? "entry" : "entries") read, \(singular) to Singular's endpoints, \(others) other"
        ]
        if !problems.isEmpty {
            // Each is a line on standard error (`skan-mock check`), where a CI log shows it first.
            lines.append("  \(problems.count) could not be read: \(problems.map(\.line).joined(separator: "; "))")
        }
        lines.append(journal.text)
        if let upstream {
            lines.append("Singular's answers against the model:")
            lines.append(upstream.text)
        }
        return lines.joined(separator: "\n")
    }

    /// JUnit XML: `JUnitReport`'s testcases, the unreadable entries as one more.
    public func junit(suiteName: String) -> String {
        JUnitReport.xml(
            journal, suiteName: suiteName,
            unreadableInput: ("capture", "capture entries", "unreadable_entry", problems.map(\.line)))
    }
}
