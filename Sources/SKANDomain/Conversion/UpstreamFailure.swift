/// Why an `--upstream` exchange gave no answer to pass on, in the journal's words: its name is
/// `upstream.error` on the line, and each comes with its finding. The server writes these and
/// `skan-mock compare` reads them, from this one list.
public enum UpstreamFailure: String, Sendable, Equatable, CaseIterable {
    case timeout
    case unreachable
    /// It answered, but with nothing skan-mock may pass on (too large, a status that would hang
    /// the client).
    case unusable
    /// The request was never sent: the queue was full, its turn came after the stop, it waited its
    /// whole timeout for a connection, or shadow mode gave it up.
    case notSent = "not_sent"
    /// The request had come through a skan-mock already.
    case loop

    /// The finding the entry gets.
    public var findingCode: FindingCode {
        switch self {
        case .timeout: .upstreamTimeout
        case .unreachable: .upstreamUnreachable
        case .unusable: .upstreamUnusable
        case .notSent: .upstreamSkipped
        case .loop: .upstreamLoop
        }
    }
}
