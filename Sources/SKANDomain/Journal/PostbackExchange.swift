/// A postback received at the receiver paths or sent by the postback sender: an exchange of its
/// own kind, journaled as endpoint `postback`. It has no Singular answer, no SKAN metadata and no
/// window, so it is not an `SKANOutcome`: only what the journal line and the metrics need.
public struct PostbackExchange: Sendable {
    /// As received (method, path, remote, the URL's query) or, for a sent one, the URL posted to.
    public var request: SKANRequest
    /// The answer sent (received) or got back (sent); 0 for a post never made.
    public var status: Int
    public var body: [UInt8]
    /// The device named on the receiving URL (`?device=ID`), or the one the sender posted for.
    public var device: String?
    /// Why it was refused, or what is wrong with it (a bad signature).
    public var findings: [ValidationFinding]
    /// The clock reading it was received or sent at (the journal's `time`).
    public var timeMilliseconds: Int64

    public init(
        request: SKANRequest, status: Int, body: [UInt8], device: String?, findings: [ValidationFinding] = [],
        timeMilliseconds: Int64
    ) {
        self.request = request
        self.status = status
        self.body = body
        self.device = device
        self.findings = findings
        self.timeMilliseconds = timeMilliseconds
    }
}
