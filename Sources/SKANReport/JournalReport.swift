import SKANDomain

/// A journal summed up per device, for CI: how many requests each device sent, the windows it
/// reached, the values it was answered and every finding with the request it came from. The one
/// place `skan-mock report` and `GET /__admin/report` build their summary; pure, so it is tested
/// without sockets or files.
public struct JournalReport: Sendable, Equatable {
    /// One validation finding and the request that carried it.
    public struct Finding: Sendable, Equatable {
        public var requestId: Int64?
        public var method: String
        public var path: String
        public var param: String?
        public var code: String
        public var message: String
    }

    /// What one device did.
    public struct Device: Sendable, Equatable {
        /// The journal's `device`, or "(none)" for requests that named no device.
        public var device: String
        public var requests = 0
        /// Windows seen (`p0`, `p1`, `p2`, `over`), in that order.
        public var windows: [String] = []
        /// Distinct `conversion_value`s answered, in the order first answered.
        public var values: [Int64] = []
        public var findings: [Finding] = []
        /// What Apple would send for this device, when the report has device state to tell it.
        public var postbacks: DevicePostbacks?

        /// Finding codes and how often each occurred, most frequent first (ties by code).
        public var findingsByCode: [(code: String, count: Int)] {
            var counts: [String: Int] = [:]
            for f in findings { counts[f.code, default: 0] += 1 }
            return counts.map { ($0.key, $0.value) }.sorted {
                $0.count != $1.count ? $0.count > $1.count : $0.code < $1.code
            }
        }

        public static func == (a: Device, b: Device) -> Bool {
            a.device == b.device && a.requests == b.requests && a.windows == b.windows && a.values == b.values
                && a.findings == b.findings
        }
    }

    /// A journal line that could not be read, by its 1-based number.
    public struct UnreadableLine: Sendable, Equatable {
        public var line: Int
        public var reason: String
    }

    /// The key requests without a device are grouped under.
    public static let noDevice = "(none)"
    static let windowOrder = ["p0", "p1", "p2", "over"]

    /// Devices in the order they first appear.
    public var devices: [Device] = []
    public var unreadableLines: [UnreadableLine] = []
    /// The postbacks received at `/.well-known/.../report-attribution/`, once `checkReceived` has
    /// compared them with the prediction.
    public var receivedPostbacks: [ReceivedPostbackCheck] = []
    /// Received postbacks journaled without their body (an older version, or a body over
    /// `JournalRecord.maxPostbackBodyBytes`): counted, not compared.
    public var receivedWithoutBody = 0

    public var requests: Int { devices.reduce(0) { $0 + $1.requests } }
    public var findingCount: Int { devices.reduce(0) { $0 + $1.findings.count } }
    /// Postbacks that carry a value the model never gives.
    public var postbackFindingCount: Int { devices.reduce(0) { $0 + ($1.postbacks?.findings.count ?? 0) } }
    /// Received postbacks that fail (`ReceivedPostbackCheck.failure`).
    public var receivedFailureCount: Int { receivedPostbacks.filter { $0.failure != nil }.count }
    /// Whether CI should fail: any finding (a request's or a postback's), a received postback that
    /// differs from the prediction or whose signature does not verify, or any line that was not a
    /// journal entry.
    public var hasProblems: Bool {
        findingCount > 0 || postbackFindingCount > 0 || receivedFailureCount > 0 || !unreadableLines.isEmpty
    }

    /// Adds each device's postbacks as of `now`, from the device state `state` gives (the server's
    /// own, or one rebuilt from a journal file); `model` reads what the values mean.
    public mutating func attachPostbacks(model: ConversionModel?, now: Int64, state: (String) -> DeviceState?) {
        for i in devices.indices {
            guard let device = state(devices[i].device) else { continue }
            devices[i].postbacks = DevicePostbacks(
                device: devices[i].device, state: device, model: model, now: now,
                developerWindows: developerWindows[devices[i].device]?.state)
        }
    }

    /// Compares the received postbacks with the prediction (`ReceivedPostbackCheck.check`):
    /// `device` and `developerMode` as `GET /__admin/postbacks/received` takes them; `predict`
    /// gives a device's prediction, and candidates are the report's devices, the latest first.
    public mutating func checkReceived(
        model: ConversionModel?, device: String?, developerMode: Bool,
        predict: (String, PostbackQuery) -> DevicePostbacks?
    ) {
        let names = devices.reversed().map(\.device).filter { $0 != Self.noDevice }
        receivedPostbacks = ReceivedPostbackCheck.check(
            received, device: device, model: model, developerMode: developerMode, predict: predict,
            candidates: { names })
    }

    /// Each device's windows as Developer Mode files its answers (`DevicePostbacks`'s
    /// `developerWindows`), from the journal's times.
    public func developerModeWindows(_ device: String) -> WindowedDeviceState? { developerWindows[device]?.state }

    /// The received postbacks read from the journal, before `checkReceived`.
    private var received: [ReceivedPostbackStore.Entry] = []
    /// Where each device is in `devices`.
    private var positions: [String: Int] = [:]
    /// Each device's windows as Developer Mode files its answers, folded as the journal is read.
    private var developerWindows: [String: DeveloperModeWindows] = [:]

    public init() {}

    /// A JSON Lines journal (the `--log` file) held in memory: one entry per line; a line that is
    /// not an entry is listed in `unreadableLines`, never fatal.
    public init(jsonLines bytes: [UInt8]) {
        self.init()
        var reader = JournalFileReader(InMemoryJournalSource(bytes))
        // An in-memory source cannot fail.
        while let line = try? reader.next() { add(line) }
    }

    /// Journal entries as the journal holds them (the admin route).
    public init(records: [JournalRecord]) {
        self.init()
        for record in records { add(record) }
    }

    /// Takes one line of a journal file: an entry is summed up, a reset marker passed over (the
    /// report covers the whole file), a line that is not an entry listed.
    public mutating func add(_ line: JournalLine) {
        switch line {
        case .entry(let record, _, _): add(record)
        case .reset: break
        case .skipped(let failure):
            unreadableLines.append(UnreadableLine(line: failure.line ?? 0, reason: failure.reason))
        }
    }

    public mutating func add(_ record: JournalRecord) {
        // A received postback is not a request the app made: it is kept to be compared
        // (`checkReceived`); a refused one, or one skan-mock sent, is passed over.
        if record.endpoint == .postback {
            guard let received = record.postback else { return }
            guard let postback = received.postback else {
                receivedWithoutBody += 1
                return
            }
            self.received.append(
                ReceivedPostbackStore.Entry(
                    id: record.id, timeMilliseconds: record.time ?? 0, path: record.path, remote: record.remote,
                    device: record.device, postback: postback, verdict: received.verdict, bytes: 0))
            return
        }
        let name = record.device ?? Self.noDevice
        let position: Int
        if let known = positions[name] {
            position = known
        } else {
            position = devices.count
            positions[name] = position
            devices.append(Device(device: name))
        }
        if record.endpoint == .skan4 { developerWindows[name, default: DeveloperModeWindows()].add(record) }
        var device = devices[position]
        device.requests += 1
        if let window = record.window?.rawValue, !device.windows.contains(window) {
            device.windows.append(window)
            device.windows.sort {
                (Self.windowOrder.firstIndex(of: $0) ?? 9) < (Self.windowOrder.firstIndex(of: $1) ?? 9)
            }
        }
        if let value = record.answeredValue, !device.values.contains(value) {
            device.values.append(value)
        }
        for issue in record.issues {
            device.findings.append(
                Finding(
                    requestId: record.id, method: record.method, path: record.path, param: issue.param,
                    code: issue.code.rawValue, message: issue.message))
        }
        devices[position] = device
    }

    public static func == (a: JournalReport, b: JournalReport) -> Bool {
        a.devices == b.devices && a.unreadableLines == b.unreadableLines
    }
}

extension JournalReport.Finding {
    /// `#12 GET /api/v2/conversion_value: p0_coarse: coarse_value_out_of_range: ...`
    public var summary: String {
        let id = requestId.map { "#\($0)" } ?? "#?"
        return "\(id) \(method) \(path): \(param.map { "\($0): " } ?? "")\(code): \(message)"
    }

    var json: JSONValue {
        [
            "id": requestId.map { .int($0) } ?? .null, "method": .string(method), "path": .string(path),
            "param": param.map { .string($0) } ?? .null, "code": .string(code), "message": .string(message)
        ]
    }
}

extension JournalReport {
    /// `GET /__admin/report`'s answer and `skan-mock report --json`'s output.
    public var json: JSONValue {
        let devices: [JSONValue] = devices.map { d in
            var members: [JSONMember] = [
                JSONMember("device", .string(d.device)),
                JSONMember("requests", .int(Int64(d.requests))),
                JSONMember("windows", .array(d.windows.map { .string($0) })),
                JSONMember("values", .array(d.values.map { .int($0) })),
                JSONMember(
                    "findings_by_code", .object(d.findingsByCode.map { JSONMember($0.code, .int(Int64($0.count))) })),
                JSONMember("findings", .array(d.findings.map(\.json)))
            ]
            if let postbacks = d.postbacks { members.append(JSONMember("postbacks", postbacks.json)) }
            return .object(members)
        }
        return [
            "requests": .int(Int64(requests)),
            "findings": .int(Int64(findingCount)),
            "devices": .array(devices),
            "unreadable_lines": .array(
                unreadableLines.map { ["line": .int(Int64($0.line)), "reason": .string($0.reason)] }),
            "received_postbacks": .array(receivedPostbacks.map(\.json))
        ]
    }

    /// The summary for people: one block per device, then the lines that could not be read.
    public var text: String {
        var lines = [
            "\(Self.count(requests, "request")) from \(Self.count(devices.count, "device")), \(Self.count(findingCount, "finding"))"
        ]
        for d in devices {
            let windows = d.windows.isEmpty ? "-" : d.windows.joined(separator: ",")
            let values = d.values.isEmpty ? "-" : d.values.map(String.init).joined(separator: ",")
            let codes =
                d.findingsByCode.isEmpty
                ? "none" : d.findingsByCode.map { "\($0.code) x\($0.count)" }.joined(separator: ", ")
            lines.append(
                "device \(d.device): \(Self.count(d.requests, "request")), windows \(windows), values \(values), findings: \(codes)"
            )
            for f in d.findings { lines.append("  \(f.summary)") }
            if let postbacks = d.postbacks {
                lines.append("  postbacks as of \(RFC3339.format(milliseconds: postbacks.now)):")
                for line in postbacks.lines { lines.append("    \(line)") }
                for f in postbacks.findings { lines.append("    \(f.code.rawValue): \(f.message)") }
            }
        }
        if !receivedPostbacks.isEmpty || receivedWithoutBody > 0 {
            let counts = PostbackComparison.Result.allCases.compactMap { result in
                let n = receivedPostbacks.filter { $0.comparison.result == result }.count
                return n == 0 ? nil : "\(n) \(result.rawValue)"
            }
            lines.append(
                "received postbacks: \(receivedPostbacks.count)"
                    + (counts.isEmpty ? "" : " (" + counts.joined(separator: ", ") + ")"))
            for check in receivedPostbacks { lines.append("  \(check.line)") }
            if receivedWithoutBody > 0 {
                lines.append(
                    "  \(Self.count(receivedWithoutBody, "postback")) journaled without its body (an older version, or over \(JournalRecord.maxPostbackBodyBytes) bytes): not compared"
                )
            }
        }
        for u in unreadableLines { lines.append("line \(u.line): \(u.reason)") }
        return lines.joined(separator: "\n")
    }

    /// "1 request", "2 requests".
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
