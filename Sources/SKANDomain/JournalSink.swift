/// Where journal lines go (a file, standard output), implemented by the app. Called under the
/// journal's lock, in id order, so it must only hand the bytes off (append to a buffer, arm a
/// writer) and never block on I/O.
public protocol JournalSink: Sendable {
    /// One complete JSON Lines record: a JSON object followed by "\n".
    func write(line: [UInt8])

    /// Blocks until every line handed over so far is written: before an answer that reports lines
    /// (`/__admin/requests/wait`), and at shutdown.
    func flush()
}

extension JournalSink {
    public func flush() {}
}
