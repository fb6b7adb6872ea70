/// A device's windows as iOS keeps them in Developer Mode (0-3, 3-6 and 6-9 minutes from the first
/// call), rebuilt from the answers the journal holds, by the time each was answered. The server's
/// own device state cannot tell: Singular's snippet believes it is in its 48-hour p0 all along, so
/// the server files every answer of those minutes under p0, while iOS files each under the short
/// window it falls in (and ignores the fine values of p1 and p2). Fed one journaled request at a
/// time, in order, so `skan-mock report` folds a journal file as a stream.
public struct DeveloperModeWindows: Sendable {
    /// The state to read Developer Mode's postbacks from (`PostbackSimulator.skan4`).
    public private(set) var state = WindowedDeviceState()

    public init() {}

    /// Windows from `first` with nothing answered in them: for a device whose journaled requests
    /// are gone (the journal was emptied, or dropped them as it filled).
    public mutating func begin(at first: Int64?) {
        guard state.firstCallSeconds == nil else { return }
        state.firstCallSeconds = first
    }

    /// Takes one journaled request of the device: a SKAN 4 request the client got a 200 for, and
    /// read as the client read it (the answer the journal says it was sent, as the report adopts it).
    public mutating func add(_ record: JournalRecord) {
        guard record.endpoint == .skan4, record.response.status == 200, record.fault?.replacedAnswer != true,
            let time = record.time
        else { return }
        // Two parameters read as they came, not the whole request parsed: a report folds every line.
        guard let first = record.parameters[.firstCall].flatMap({ Int64($0) }) else { return }
        if let known = state.firstCallSeconds, first > known { state.reinstall(firstCallSeconds: first) }
        state.firstCallSeconds = first
        let elapsed = saturatingSubtract(floorDivide(time, 1000), first)
        guard elapsed >= 0,
            let n = PostbackSimulator.developerWindowEnds.firstIndex(where: { elapsed < $0 })
        else { return }
        let current = record.parameters[.currentFine].flatMap { Int64($0) }.map { Swift.min(63, Swift.max(0, $0)) }
        if n == 0, let fine = current { state.p0Fine = fine }
        guard state.lockedAtMilliseconds[n] == nil, let answer = AppliedAnswer(status: 200, body: record.response.body),
            answer.ok, answer.value != nil || answer.coarse != nil || answer.lock != nil
        else { return }
        let fine = n == 0 ? answer.value ?? current : nil
        state.lastReturned[n] = ModelAnswer(fine: fine, coarse: answer.coarse, lock: answer.lock ?? false)
        state.lastSetMilliseconds[n] = time
        if n == 0, let fine { state.p0Fine = fine }
        if answer.lock == true {
            state.lockedByServer[n] = true
            state.lock(n, at: time)
        }
    }
}
