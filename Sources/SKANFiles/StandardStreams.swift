import SystemPOSIX

/// Writes to standard output, standard error and the journal log, with no user-space buffering:
/// what is written is out at once (a script waits for the start-up line, `tail -f` for the
/// journal) and each call is whole `write(2)`s, so lines from different threads never interleave.
public enum StandardStreams {
    /// A line for people and scripts on standard output.
    public static func output(_ line: String) { writeAll(Array((line + "\n").utf8), to: System.standardOutput) }

    /// A line on standard error (diagnostics, reloads, start-up failures).
    public static func error(_ line: String) { writeAll(Array((line + "\n").utf8), to: System.standardError) }

    /// Writes every byte, retrying partial writes and EINTR. Returns the error that stopped it, or
    /// nil when all was written.
    @discardableResult
    public static func writeAll(_ bytes: [UInt8], to fd: Int32) -> SystemError? {
        System.writeAll(fd, bytes)
    }
}
