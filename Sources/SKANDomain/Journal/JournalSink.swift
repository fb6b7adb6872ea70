/// Where journal lines go (a file, standard output), implemented by the app. Called under the
/// journal's lock, in id order, so it must only hand the bytes off (append to a buffer, arm a
/// writer) and never block on I/O.
public protocol JournalSink: Sendable {
    /// One complete JSON Lines record: a JSON object followed by "\n".
    func write(line: [UInt8])

    /// Blocks until every line handed over so far is written: at shutdown.
    func flush()

    /// Runs `then` once every line handed over so far is written, without blocking the caller:
    /// before an answer that reports lines (`/__admin/requests/wait`), which may be decided on an
    /// event loop's thread, where a write to the disk must not wait.
    func flush(then: @escaping @Sendable () -> Void)
}

extension JournalSink {
    public func flush() {}

    public func flush(then: @escaping @Sendable () -> Void) {
        flush()
        then()
    }
}
