/// Why a call to skan-mock's admin API failed.
public enum SKANMockClientError: Error, Sendable, CustomStringConvertible {
    /// The server answered with a status other than 2xx (e.g. 400 for a bad filter, 401 without the token).
    case unexpectedStatus(Int, body: String)
    /// The answer was not the JSON this client expected.
    case unreadableAnswer(String)
    /// Not an HTTP answer at all (connection refused, timeout).
    case transport(String)
    /// A tenant name against the server's rule (a letter or digit, then up to 63 letters, digits,
    /// `.`, `_` or `-`).
    case badTenantName(String)

    public var description: String {
        switch self {
        case .unexpectedStatus(let status, let body): return "skan-mock answered HTTP \(status): \(body)"
        case .unreadableAnswer(let reason): return "skan-mock's answer could not be read: \(reason)"
        case .transport(let reason): return "skan-mock could not be reached: \(reason)"
        case .badTenantName(let name):
            return
                "bad tenant name \(name): a tenant name is a letter or digit followed by up to 63 letters, digits, '.', '_' or '-'"
        }
    }
}

/// `expectNoFindings` found some: every finding with the request it came from, one per line.
public struct FindingsError: Error, Sendable, CustomStringConvertible {
    public let entries: [JournalEntry]

    public var description: String {
        let count = entries.reduce(0) { $0 + $1.issues.count }
        var lines = [
            "skan-mock recorded \(count) finding\(count == 1 ? "" : "s") in \(entries.count) request\(entries.count == 1 ? "" : "s"):"
        ]
        for e in entries {
            for f in e.issues {
                let param = f.param.map { " \($0)" } ?? ""
                lines.append(
                    "  request #\(e.id) \(e.method) \(e.path) device \(e.device ?? "-"):\(param) \(f.code): \(f.message)"
                )
            }
        }
        return lines.joined(separator: "\n")
    }
}
