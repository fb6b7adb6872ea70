import HTTPCore
import SKANDomain

/// `--resume`: a restarted server (a container that restarts) picks up where it was, from its own
/// `--log` file. The journal's entries come back as they were, and the devices' state is rebuilt
/// by answering each journaled request again at the time it was first answered: the model is the
/// same pure function, so events, windows, revenue, locks and last answers come out as before, and
/// the next request is answered as if there had been no restart.
///
/// Only the last run in the file counts (a file appended to by several runs restarts its ids), and
/// a torn last line (a SIGKILL in the middle of a write) is skipped with a note. Requests whose
/// answer a fault replaced, or that were refused, left no state the first time and leave none now;
/// a proxied or replayed answer is adopted again, as it was the first time.
struct JournalResume {
    /// The entries to put back, oldest first, with consecutive ids.
    var entries: [JournalEntry] = []
    /// Lines for standard error (a torn line skipped, earlier runs ignored).
    var notes: [String] = []
    /// The time-travel offset in force when the last entry was written.
    var clockOffsetSeconds: Int64?

    /// Reads `bytes`, the journal file's content.
    init(bytes: [UInt8], path: String) {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        if let last = lines.last, bytes.last != UInt8(ascii: "\n") || JournalEntry.restored(line: Array(last)) == nil {
            lines.removeLast()
            notes.append(
                "skan-mock: --resume: the last line of \(path) was cut short (a kill during a write) and is skipped")
        }
        var run: [JournalEntry] = []
        var unreadable = 0
        for line in lines {
            guard let entry = JournalEntry.restored(line: Array(line)) else {
                unreadable += 1
                continue
            }
            // A new run, or a gap: only the latest stretch of consecutive ids is this server's.
            if let previous = run.last, entry.id != previous.id + 1 { run.removeAll() }
            run.append(entry)
        }
        if unreadable > 0 {
            notes.append("skan-mock: --resume: \(unreadable) lines of \(path) are not journal entries and are skipped")
        }
        entries = run
        clockOffsetSeconds = run.last.flatMap { $0.json["clock_offset_s"]?.intValue }
    }

    /// Answers the entries' requests again, in order, at their own times, to rebuild device state.
    /// Returns how many requests were replayed.
    func replay(into service: ConversionService) -> Int {
        var replayed = 0
        for entry in entries {
            let json = entry.json
            guard json["fault"] == nil || json["fault"] == .null else { continue }
            // A proxied or replayed answer (the entry keeps the model's beside it) is adopted; the
            // model's own is worked out again, as it was the first time.
            if Self.answerAgain(json, into: service, adopting: json["model"] != nil ? .received : .model) != nil {
                replayed += 1
            }
        }
        return replayed
    }

    /// Which answer a request answered again leaves on its device.
    enum Adoption {
        /// The model's, worked out again.
        case model
        /// The one the journal says the client received.
        case received
    }

    /// Answers one journaled request again at its own time, so its device's state is as it was
    /// after it; returns that time, or nil for an entry that left no state (not a SKAN endpoint, not
    /// a 200, or, adopting, an answer the client could not use). Shared by `--resume` and the
    /// report's rebuild (`JournalDeviceState`).
    static func answerAgain(_ json: JSONValue, into service: ConversionService, adopting: Adoption) -> Int64? {
        guard let name = json["endpoint"]?.stringValue, let endpoint = SKANEndpoint(name: name), endpoint != .unmatched,
            json["response"]?["status"] == 200,
            let time = json["time"]?.stringValue.flatMap(RFC3339.parse)
        else { return nil }
        var adopted: AppliedAnswer?
        if adopting == .received {
            guard let body = json["response"]?["body"]?.stringValue,
                let received = AppliedAnswer(status: 200, body: Array(body.utf8))
            else { return nil }
            adopted = received
        }
        let request = SKANRequest(
            method: json["method"]?.stringValue ?? "GET", path: json["path"]?.stringValue ?? endpoint.path,
            remote: json["remote"]?.stringValue ?? "", parameters: JournalEntry.parameters(of: json))
        _ = service.handle(endpoint, request, commit: true, adopting: adopted, at: time)
        return time
    }
}
