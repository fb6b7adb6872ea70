/// Where a journal file's bytes come from: the file itself (the application's adapter) or memory
/// (tests, a journal already read). The domain reads files only through this.
public protocol JournalSource {
    /// Appends up to `count` more bytes to `buffer` and returns how many; 0 at the end.
    mutating func read(appendingTo buffer: inout [UInt8], count: Int) throws(JournalReadError) -> Int
}

/// A journal held in memory.
public struct InMemoryJournalSource: JournalSource {
    private let bytes: [UInt8]
    private var offset = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public mutating func read(appendingTo buffer: inout [UInt8], count: Int) -> Int {
        let end = min(bytes.count, offset + count)
        buffer.append(contentsOf: bytes[offset..<end])
        defer { offset = end }
        return end - offset
    }
}

/// What went wrong reading a journal file: a line that is not an entry (its number and why), or
/// the file itself (no line). The one error of every journal reader.
public struct JournalReadError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The line is not JSON, or not a journal entry.
        case unreadable
        /// The last line has no newline and is not a whole entry: a kill during a write.
        case torn
        /// The line is longer than `JournalFileReader.maxLineBytes`.
        case tooLong
        /// The file could not be read.
        case io
    }

    public var kind: Kind
    /// 1-based; nil for `io`.
    public var line: Int?
    public var reason: String

    public init(_ kind: Kind, line: Int?, reason: String) {
        self.kind = kind
        self.line = line
        self.reason = reason
    }

    /// `line 7: not JSON: ...`, or the reason alone.
    public var description: String { line.map { "line \($0): \(reason)" } ?? reason }
}

/// One line of a journal file.
public enum JournalLine: Sendable {
    /// An entry: typed, and its bytes as written (without the newline).
    case entry(JournalRecord, bytes: [UInt8], line: Int)
    /// A clear or reset (`JournalResetMarker`).
    case reset(JournalResetMarker, line: Int)
    /// A line that is not an entry, skipped; the lines after it are read on.
    case skipped(JournalReadError)
}

/// Reads a journal file (the `--log` JSON Lines) line by line, in bounded memory: the one reader
/// behind `--resume`, `report`, `record` and `compare`. A line that is not an entry is handed back
/// as `.skipped` with its number and reason, and reading goes on; a last line without its newline
/// is an entry when it is whole and `.skipped` as torn when it is not; blank lines are passed
/// over. Memory is one chunk plus the longest line, never the file.
public struct JournalFileReader<Source: JournalSource> {
    /// Longer lines are skipped without being held: a journal line is a few KiB (parameter values
    /// are cut at 4 KiB, upstream bodies at 64 KiB).
    public static var maxLineBytes: Int { 8 << 20 }
    static var chunkBytes: Int { 256 << 10 }

    private var source: Source
    private var buffer: [UInt8] = []
    /// Where the unread part of `buffer` starts.
    private var position = 0
    private var atEnd = false
    private var lineNumber = 0
    /// Bytes of the file consumed so far (through the end of the last line returned).
    public private(set) var offset: Int64 = 0
    /// Where the last line handed back starts in the file.
    public private(set) var lastLineStart: Int64 = 0
    /// Whether the last line handed back had no newline (the file's last, unterminated line).
    public private(set) var lastLineUnterminated = false
    /// Whose entries and reset markers are handed back (`report`, `record` and `compare` take
    /// one tenant's); the others' are passed over and counted.
    public var tenant: JournalFilter.TenantScope = .all
    /// Entries and markers of other tenants passed over.
    public private(set) var otherTenantLines = 0
    /// Entries and markers of the tenant asked for that were handed back: none means no line names
    /// it (a misspelt `--tenant` would otherwise read as a tenant that sent nothing).
    public private(set) var tenantLines = 0
    /// The other tenants passed over, as their lines name them (nil: the default tenant), in the
    /// order first met; at most `maxOtherTenantsNamed`, so a file of many tenants costs no more.
    public private(set) var otherTenants: [String?] = []
    /// Whether other tenants beyond `otherTenants` were passed over.
    public private(set) var moreOtherTenants = false
    /// Whether `next` has returned nil: every line was read, so `tenantLines` and `otherTenants`
    /// are the whole file's.
    public private(set) var reachedEnd = false
    /// Tenant names kept for `otherTenants`: a server holds 64 by default (`--max-tenants`).
    public static var maxOtherTenantsNamed: Int { 64 }

    public init(_ source: Source) { self.source = source }

    /// The next line that is not blank, or nil at the end of the file.
    public mutating func next() throws(JournalReadError) -> JournalLine? {
        while true {
            guard let (bytes, terminated, tooLong) = try nextRawLine() else {
                reachedEnd = true
                return nil
            }
            lineNumber += 1
            lastLineUnterminated = !terminated
            if tooLong {
                return .skipped(
                    JournalReadError(
                        .tooLong, line: lineNumber,
                        reason: "longer than \(JournalFileReader.maxLineBytes >> 20) MiB, so not a journal entry"))
            }
            var content = bytes[...]
            if content.last == UInt8(ascii: "\r") { content = content.dropLast() }
            if content.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            let line = Self.classify(Array(content), line: lineNumber, terminated: terminated)
            if case .only(let name) = tenant {
                let lineTenant: String??
                switch line {
                case .entry(let record, _, _): lineTenant = .some(record.tenant)
                case .reset(let marker, _): lineTenant = .some(marker.tenant)
                case .skipped: lineTenant = .none
                }
                if let lineTenant {
                    guard lineTenant == name else {
                        passOver(lineTenant)
                        continue
                    }
                    tenantLines += 1
                }
            }
            return line
        }
    }

    /// Counts a line of another tenant, and keeps the tenant's name while there is room.
    private mutating func passOver(_ other: String?) {
        otherTenantLines += 1
        guard !otherTenants.contains(other) else { return }
        if otherTenants.count < Self.maxOtherTenantsNamed {
            otherTenants.append(other)
        } else {
            moreOtherTenants = true
        }
    }

    /// What one non-blank line holds.
    static func classify(_ bytes: [UInt8], line: Int, terminated: Bool) -> JournalLine {
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            return terminated
                ? .skipped(JournalReadError(.unreadable, line: line, reason: "not JSON: \(error.description)"))
                : .skipped(
                    JournalReadError(
                        .torn, line: line, reason: "the last line was cut short (a kill during a write)"))
        }
        if let marker = JournalResetMarker(json: json) { return .reset(marker, line: line) }
        do {
            return .entry(try JournalRecord(json: json), bytes: bytes, line: line)
        } catch {
            let reason =
                error.path == "$" ? error.reason : "\(error.path): \(error.reason)"
            return .skipped(JournalReadError(.unreadable, line: line, reason: reason))
        }
    }

    /// The next line's bytes (without the newline), whether it ended with one, and whether it was
    /// too long to keep (then its bytes are empty); nil at the end.
    private mutating func nextRawLine() throws(JournalReadError) -> (bytes: [UInt8], terminated: Bool, tooLong: Bool)? {
        var skipping = false
        var skippedStart: Int64 = 0
        // Where to look for the newline: bytes before it were looked at already.
        var scanned = position
        while true {
            if let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                if newline - position > Self.maxLineBytes && !skipping {
                    skippedStart = offset
                    skipping = true
                }
                let start = offset
                let line = skipping ? [] : Array(buffer[position..<newline])
                offset += Int64(newline + 1 - position)
                position = newline + 1
                lastLineStart = skipping ? skippedStart : start
                return (line, true, skipping)
            }
            if atEnd {
                guard position < buffer.count || skipping else { return nil }
                if buffer.count - position > Self.maxLineBytes && !skipping {
                    skippedStart = offset
                    skipping = true
                }
                let start = offset
                let line = skipping ? [] : Array(buffer[position...])
                offset += Int64(buffer.count - position)
                position = buffer.count
                lastLineStart = skipping ? skippedStart : start
                return (line, false, skipping)
            }
            // Keep the unread part, drop what was read, and read more.
            if buffer.count - position > Self.maxLineBytes {
                // A line past the limit: forget it as it goes, keep only where it started.
                if !skipping { skippedStart = offset }
                skipping = true
                offset += Int64(buffer.count - position)
                buffer.removeAll(keepingCapacity: true)
                position = 0
            } else if position > 0 {
                buffer.removeSubrange(0..<position)
                position = 0
            }
            scanned = buffer.count
            if try source.read(appendingTo: &buffer, count: Self.chunkBytes) == 0 { atEnd = true }
        }
    }
}
