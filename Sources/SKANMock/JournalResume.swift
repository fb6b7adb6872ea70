import HTTPCore
import SKANDomain

/// `--resume`: a restarted server (a container that restarts) picks up where it was, from its own
/// `--log` file. The journal's entries come back as they were, and the devices' state is rebuilt
/// by answering each journaled request again at the time it was first answered: the model is the
/// same pure function, so events, windows, revenue, locks and last answers come out as before, and
/// the next request is answered as if there had been no restart.
///
/// Only the last run in the file counts: a run appended after another starts its ids again, so an
/// id seen twice starts a new run. Within a run, ids are the order requests arrived in (lines may be
/// written in another order, when answers finish out of order), so entries are put in id order.
/// A line that is not an entry is skipped with its line number and reason, never the lines after
/// it; a last line without its newline is kept when it is a whole entry and skipped as torn (a kill
/// during a write) when it is not. Requests whose answer a fault replaced, or that were refused,
/// left no state the first time and leave none now (a delay fault answered as the model did); a
/// proxied or replayed answer is adopted again, as it was the first time.
struct JournalResume {
    /// The entries to answer again, oldest first (gaps where a line was skipped).
    var run: [JournalEntry] = []
    /// Lines for standard error (lines skipped, earlier runs ignored).
    var notes: [String] = []
    /// The time-travel offset in force when the last entry was written.
    var clockOffsetSeconds: Int64?

    /// How many entries are answered again between two progress lines.
    static let progressEvery = 250_000

    /// At most this many skipped lines are named one by one; the rest are counted.
    static let namedSkips = 10

    /// The last id a reset marker cleared from the journal (0 when none).
    var clearedThrough: Int64 = 0

    /// The entries to put back in the journal: the newest stretch of consecutive ids after the
    /// last clear (the journal's ring holds consecutive ids; entries before a skipped line still
    /// rebuild their devices).
    var entries: [JournalEntry] {
        guard var first = run.indices.last, run[first].id > clearedThrough else { return [] }
        while first > run.startIndex && run[first - 1].id + 1 == run[first].id && run[first - 1].id > clearedThrough {
            first -= 1
        }
        return Array(run[first...])
    }

    /// Reads `bytes`, the journal file's content.
    init(bytes: [UInt8], path: String) {
        var ids = Set<Int64>()
        var skipped = 0
        var lineNumber = 0
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            lineNumber += 1
            let line = Array(bytes[start..<end])
            let terminated = end < bytes.endIndex
            start = terminated ? end + 1 : end
            if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\t") }) {
                continue
            }
            switch Self.read(line) {
            case .success(.entry(let entry)):
                if ids.contains(entry.id) {
                    run.removeAll()
                    ids.removeAll()
                    clearedThrough = 0
                }
                run.append(entry)
                ids.insert(entry.id)
            case .success(.reset(let marker)):
                // What was cleared is not listed again; what was reset rebuilds no device either.
                if marker.devices { run.removeAll { $0.id <= marker.through } }
                clearedThrough = max(clearedThrough, marker.through)
            case .failure(let failure):
                skipped += 1
                guard skipped <= Self.namedSkips else { continue }
                notes.append(
                    terminated
                        ? "skan-mock: --resume: \(path):\(lineNumber): skipped: \(failure.reason)"
                        : "skan-mock: --resume: \(path):\(lineNumber): the last line was cut short (a kill during a write) and is skipped"
                )
            }
        }
        if skipped > Self.namedSkips {
            notes.append("skan-mock: --resume: \(skipped - Self.namedSkips) more lines of \(path) skipped")
        }
        run.sort { $0.id < $1.id }
        let kept = entries.count
        if kept < run.filter({ $0.id > clearedThrough }).count {
            notes.append(
                "skan-mock: --resume: \(run.filter({ $0.id > clearedThrough }).count - kept) older entries of \(path) rebuilt their devices but are not listed (a skipped line breaks the journal's run of ids)"
            )
        }
        clockOffsetSeconds = run.last.flatMap { $0.json["clock_offset_s"]?.intValue }
    }

    /// Why a line is not an entry.
    struct LineFailure: Error {
        var reason: String
    }

    /// What a line of the journal file holds.
    enum Line {
        case entry(JournalEntry)
        case reset(JournalResetMarker)
    }

    /// The entry or reset marker on one line, or why it is neither.
    static func read(_ line: [UInt8]) -> Result<Line, LineFailure> {
        let json: JSONValue
        do {
            json = try JSONParser.parse(line)
        } catch {
            return .failure(LineFailure(reason: "not JSON: \(error.description)"))
        }
        if let marker = JournalResetMarker(json: json) { return .success(.reset(marker)) }
        guard json["id"]?.intValue != nil, let entry = JournalEntry.restored(line: line) else {
            return .failure(LineFailure(reason: "no integer \"id\", so not a journal entry"))
        }
        return .success(.entry(entry))
    }

    /// Answers the entries' requests again, in order, at their own times, to rebuild device state.
    /// Returns how many requests were replayed. `progress` hears how far it got, every
    /// `progressEvery` entries, so that a long file is not a silent minute.
    func replay(
        into service: ConversionService, progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) -> Int {
        var replayed = 0
        for (index, entry) in run.enumerated() {
            if index > 0 && index % Self.progressEvery == 0 { progress(index, run.count) }
            let json = entry.json
            // A fault that replaced the answer left no state; a delay answered as the model did.
            guard json["fault"]?["type"] == nil else { continue }
            // The answer the journal says the device was given is adopted, whoever gave it (the
            // model, the upstream, a replay): a model changed since would give another.
            if Self.answerAgain(json, into: service) != nil {
                replayed += 1
            }
        }
        return replayed
    }

    /// Answers one journaled request again at its own time, so its device's state is as it was
    /// after it, adopting the answer the journal says the client received; returns that time, or
    /// nil for an entry that left no state (not a SKAN endpoint, not a 200). Shared by `--resume`
    /// and the report's rebuild (`JournalDeviceState`).
    static func answerAgain(_ json: JSONValue, into service: ConversionService) -> Int64? {
        guard let name = json["endpoint"]?.stringValue, let endpoint = SKANEndpoint(name: name), endpoint != .unmatched,
            json["response"]?["status"] == 200,
            let time = json["time"]?.stringValue.flatMap(RFC3339.parse)
        else { return nil }
        // As the proxy did the first time: an answer the model cannot read is adopted as one the
        // client could not use, not left out of the device's history.
        let body =
            json["response"]?["body"]?.stringValue.map { Array($0.utf8) }
            ?? json["response"]?["body_base64"]?.stringValue.flatMap { Base64.decode($0) } ?? []
        let adopted = AppliedAnswer(status: 200, body: body) ?? AppliedAnswer(ok: false)
        let request = SKANRequest(
            method: json["method"]?.stringValue ?? "GET", path: json["path"]?.stringValue ?? endpoint.path,
            remote: json["remote"]?.stringValue ?? "", parameters: JournalEntry.parameters(of: json))
        _ = service.handle(endpoint, request, commit: true, adopting: adopted, at: time)
        return time
    }
}
