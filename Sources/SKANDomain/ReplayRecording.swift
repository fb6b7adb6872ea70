/// `skan-mock record`: a journal of an `--upstream` run (proxy or shadow) turned into a replay
/// file. Every entry with an upstream answer is kept, under its device, in the journal's order,
/// keyed the way `--replay` keys the requests it serves: the same typed parameters, judged at the
/// entry's own time (so the window is the one production answered in). Pure: the command reads
/// and writes the files.
public struct ReplayRecording: Sendable {
    public var file: ReplayFile
    /// Entries without an upstream answer: a run without `--upstream`, a request refused before
    /// it was sent on, an upstream that timed out or could not be reached.
    public var withoutUpstreamAnswer = 0
    /// Entries with an upstream answer but no device id: nothing to replay them for.
    public var withoutDevice = 0

    /// Reads the journal's JSON Lines; `source` names it in errors and in the file. A line that is
    /// not a JSON object, or a journal with no upstream answer at all, is an error.
    public init(jsonLines bytes: [UInt8], source: String) throws(ReplayFileError) {
        var devices: [ReplayFile.Device] = []
        var position: [String: Int] = [:]
        for (n, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.last == UInt8(ascii: "\r") ? line.dropLast() : line
            if trimmed.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            guard let entry = try? JSONParser.parse(Array(trimmed)), entry.objectValue != nil else {
                throw ReplayFileError(
                    file: source, location: "line \(n + 1)",
                    reason: "not a JSON object, so not a journal entry (is this the --log file of a run?)")
            }
            if JournalResetMarker.isMarker(entry) { continue }
            guard let upstream = entry["upstream"], let status = upstream["status"]?.intValue,
                let body = Self.body(upstream),
                let endpoint = entry["endpoint"]?.stringValue.flatMap(SKANEndpoint.init(rawValue:)),
                let time = entry["time"]?.stringValue.flatMap(RFC3339.parse),
                let key = ReplayKey(
                    endpoint: endpoint, parameters: JournalEntry.parameters(of: entry), nowMilliseconds: time)
            else {
                withoutUpstreamAnswer += 1
                continue
            }
            guard let device = entry["device"]?.stringValue, !device.isEmpty else {
                withoutDevice += 1
                continue
            }
            // What `--replay` would refuse is refused here, where the line is known.
            if let problem = RecordableAnswer.problem(status: Int(clamping: status), bodyCount: body.count) {
                throw ReplayFileError(
                    file: source, location: "line \(n + 1)",
                    reason: "the upstream's answer cannot be replayed: \(problem)")
            }
            let request = ReplayFile.Request(
                key: key, status: Int(status), body: body, journalId: entry["id"]?.intValue)
            if let index = position[device] {
                devices[index].requests.append(request)
            } else {
                position[device] = devices.count
                devices.append(ReplayFile.Device(id: device, requests: [request]))
            }
        }
        guard !devices.isEmpty else {
            let reason =
                withoutDevice > 0
                ? "no upstream answer with a device id to record (\(withoutDevice) without one)"
                : "no entry has an upstream answer; record the --log of a run with --upstream URL (--upstream-mode proxy or shadow)"
            throw ReplayFileError(file: source, location: "", reason: reason)
        }
        file = ReplayFile(recordedFrom: source, devices: devices)
    }

    /// The upstream's body as the journal holds it: `body` (UTF-8 text) or `body_base64` (any bytes).
    static func body(_ upstream: JSONValue) -> [UInt8]? {
        if let text = upstream["body"]?.stringValue { return Array(text.utf8) }
        return upstream["body_base64"]?.stringValue.flatMap(Base64.decode)
    }

    /// One line for the terminal: what was recorded and what was left out.
    public var summary: String {
        let requests = file.requestCount
        var line =
            "\(requests) \(requests == 1 ? "answer" : "answers") recorded for \(file.devices.count) \(file.devices.count == 1 ? "device" : "devices")"
        var skipped: [String] = []
        if withoutUpstreamAnswer > 0 { skipped.append("\(withoutUpstreamAnswer) without an upstream answer") }
        if withoutDevice > 0 { skipped.append("\(withoutDevice) without a device id") }
        if !skipped.isEmpty { line += " (entries left out: " + skipped.joined(separator: ", ") + ")" }
        return line
    }
}
