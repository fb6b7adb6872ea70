/// The one rule for an answer that skan-mock passes on from elsewhere: what a proxy forwards from
/// the upstream, what `skan-mock record` writes and what `--replay` serves. An answer that breaks
/// it would hang the client (1xx is interim: the client keeps waiting for a final answer) or break
/// the framing of the next response on the connection (a body on 204 or 304, which HTTP/1.1 says
/// carry none), so it is refused where it enters, with this reason, and never sent.
public enum RecordableAnswer {
    /// The statuses a final answer may carry.
    public static let statuses: ClosedRange<Int> = 200...599

    /// Why an answer with `status` and a body of `bodyCount` bytes cannot be passed on, or nil.
    public static func problem(status: Int, bodyCount: Int) -> String? {
        guard statuses.contains(status) else {
            return status >= 100 && status < 200
                ? "status \(status) is an interim (1xx) answer; a recorded answer must be a final status from 200 to 599"
                : "status \(status) is not an HTTP status from 200 to 599"
        }
        if (status == 204 || status == 304) && bodyCount > 0 {
            return "status \(status) carries no body in HTTP/1.1, but this answer has \(bodyCount) bytes"
        }
        return nil
    }
}
