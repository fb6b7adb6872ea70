/// Where journal lines go (a file, standard output), implemented by the app. Called under the
/// journal's lock, in id order, so it must only hand the bytes off (append to a buffer, signal a
/// writer) and never block on I/O.
public protocol JournalSink: Sendable {
    /// One complete JSON Lines record: a JSON object followed by "\n".
    func write(line: [UInt8])

    /// Called by the journal after each `record`, outside its lock, on the recording thread: the
    /// place where a sink may do its I/O without holding up other recorders.
    func afterRecord()
}

extension JournalSink {
    public func afterRecord() {}
}
