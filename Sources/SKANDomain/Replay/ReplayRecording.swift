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

    /// Reads the journal's JSON Lines held in memory; `source` names it in errors and in the file.
    public init(jsonLines bytes: [UInt8], source: String) throws(ReplayFileError) {
        var reader = JournalFileReader(InMemoryJournalSource(bytes))
        try self.init(reading: &reader, source: source)
    }

    /// Reads a journal file as a stream. A line that is not an entry, or a journal with no
    /// upstream answer at all, is an error.
    public init<Source: JournalSource>(reading reader: inout JournalFileReader<Source>, source: String)
        throws(ReplayFileError)
    {
        var devices: [ReplayFile.Device] = []
        var position: [String: Int] = [:]
        while true {
            let line: JournalLine?
            do {
                line = try reader.next()
            } catch {
                throw ReplayFileError(file: source, path: "", reason: error.reason)
            }
            guard let line else { break }
            let record: JournalRecord
            let number: Int
            switch line {
            case .reset: continue
            case .skipped(let failure):
                throw ReplayFileError(
                    file: source, path: "line \(failure.line ?? 0)",
                    reason: "\(failure.reason), so not a journal entry (is this the --log file of a run?)")
            case .entry(let entry, _, let at):
                record = entry
                number = at
            }
            guard let answer = record.upstream?.answer, let endpoint = record.endpoint, let time = record.time,
                let key = ReplayKey(endpoint: endpoint, parameters: record.parameters, nowMilliseconds: time)
            else {
                withoutUpstreamAnswer += 1
                continue
            }
            guard let device = record.device, !device.isEmpty else {
                withoutDevice += 1
                continue
            }
            // What `--replay` would refuse is refused here, where the line is known.
            if let problem = RecordableAnswer.problem(status: answer.status, bodyCount: answer.body.count) {
                throw ReplayFileError(
                    file: source, path: "line \(number)",
                    reason: "the upstream's answer cannot be replayed: \(problem)")
            }
            let request = ReplayFile.Request(key: key, status: answer.status, body: answer.body, journalId: record.id)
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
            throw ReplayFileError(file: source, path: "", reason: reason)
        }
        file = ReplayFile(recordedFrom: source, devices: devices)
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
