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
        var builder = Builder()
        while true {
            let line: JournalLine?
            do {
                line = try reader.next()
            } catch {
                throw ReplayFileError(file: source, path: "", reason: error.reason)
            }
            guard let line else { break }
            switch line {
            case .reset: continue
            case .skipped(let failure):
                throw ReplayFileError(
                    file: source, path: "line \(failure.line ?? 0)",
                    reason: "\(failure.reason), so not a journal entry (is this the --log file of a run?)")
            case .entry(let record, _, let number):
                try builder.add(record, source: source, at: "line \(number)")
            }
        }
        self = try builder.finish(source: source)
    }

    /// Entries judged from a HAR capture (`skan-mock record CAPTURE.har`), in the capture's time
    /// order, each with Singular's answer as its upstream answer; `place` names an entry in errors.
    public init(records: [JournalRecord], source: String, place: (JournalRecord) -> String) throws(ReplayFileError) {
        var builder = Builder()
        for record in records { try builder.add(record, source: source, at: place(record)) }
        self = try builder.finish(source: source)
    }

    private init(file: ReplayFile, withoutUpstreamAnswer: Int, withoutDevice: Int) {
        self.file = file
        self.withoutUpstreamAnswer = withoutUpstreamAnswer
        self.withoutDevice = withoutDevice
    }

    /// Entries taken one at a time, per device in order, whatever they were read from.
    private struct Builder {
        var devices: [ReplayFile.Device] = []
        var position: [String: Int] = [:]
        var withoutUpstreamAnswer = 0
        var withoutDevice = 0

        mutating func add(_ record: JournalRecord, source: String, at place: String) throws(ReplayFileError) {
            guard let answer = record.upstream?.answer, let endpoint = record.endpoint?.singular, let time = record.time
            else {
                withoutUpstreamAnswer += 1
                return
            }
            guard let device = record.device, !device.isEmpty else {
                withoutDevice += 1
                return
            }
            let key = ReplayKey(endpoint: endpoint, parameters: record.parameters, nowMilliseconds: time)
            // What `--replay` would refuse is refused here, where the entry is known.
            if let problem = RecordableAnswer.problem(status: answer.status, bodyCount: answer.body.count) {
                throw ReplayFileError(
                    file: source, path: place,
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

        func finish(source: String) throws(ReplayFileError) -> ReplayRecording {
            guard !devices.isEmpty else {
                let reason =
                    withoutDevice > 0
                    ? "no upstream answer with a device id to record (\(withoutDevice) without one)"
                    : "no entry has an upstream answer; record the --log of a run with --upstream URL (--upstream-mode proxy or shadow)"
                throw ReplayFileError(file: source, path: "", reason: reason)
            }
            return ReplayRecording(
                file: ReplayFile(recordedFrom: source, devices: devices), withoutUpstreamAnswer: withoutUpstreamAnswer,
                withoutDevice: withoutDevice)
        }
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
