/// One element of a HAR file's `log.entries`, as `HARStreamReader` hands it back: its 0-based
/// index and its JSON text, or why its text could not be had.
public enum HARItem: Sendable {
    case entry(index: Int, bytes: [UInt8])
    /// Longer than `HARStreamReader.maxEntryBytes`: passed over without being held.
    case tooLarge(index: Int)
    /// The file ends inside it (an export that did not finish).
    case cut(index: Int)
}

/// Reads the entries of a HAR 1.2 file (`{"log":{..., "entries":[{...}, ...]}}`) one at a time,
/// in bounded memory: a capture of 100 MB costs one chunk and its largest entry, never the file.
/// Only the structure around `log.entries` is followed (strings, nesting); each entry's text is
/// then parsed strictly (`HARExchange`), so one bad entry is named and the rest are still read.
/// What is wrong with the file as a whole (not JSON, no `log.entries`, cut short) is `problem`
/// once `next` has returned nil.
public struct HARStreamReader<Source: JournalSource> {
    /// An entry is a request and an answer with their bodies: a few KiB, a large upload a few MiB.
    public static var maxEntryBytes: Int { 32 << 20 }
    static var chunkBytes: Int { 256 << 10 }

    /// What an open container is, and for an object the last key read at the two levels that matter.
    private enum Frame {
        case object(key: [UInt8])
        case array
    }

    private var source: Source
    private var chunk: [UInt8] = []
    private var position = 0
    private var atEnd = false
    private var stack: [Frame] = []
    private var inString = false
    private var escaped = false
    /// The object key being read (kept only at the first two levels; others are not needed).
    private var key: [UInt8]?
    private var expectingKey = false
    private var capture: [UInt8] = []
    private var capturing = false
    private var captureTooLarge = false
    private var started = false
    private var finished = false
    /// Entries seen so far (the next one's index).
    public private(set) var entryCount = 0
    /// Whether `log.entries` was found.
    public private(set) var foundEntries = false
    /// Total bytes read, for messages.
    public private(set) var bytesRead: Int64 = 0
    /// Why the file as a whole is not a whole HAR file, once `next` returned nil.
    public private(set) var problem: String?

    public init(_ source: Source) { self.source = source }

    /// Whether the open containers are `{"log":{"entries":[`, where each element is an entry.
    private var inEntries: Bool {
        guard stack.count == 3, case .object(let top) = stack[0], case .object(let log) = stack[1],
            case .array = stack[2]
        else { return false }
        return top == Array("log".utf8) && log == Array("entries".utf8)
    }

    /// The next entry, or nil at the end of the file (then see `problem`).
    public mutating func next() throws(JournalReadError) -> HARItem? {
        while !finished {
            if position == chunk.count {
                if atEnd { return end() }
                chunk.removeAll(keepingCapacity: true)
                position = 0
                let count = try source.read(appendingTo: &chunk, count: Self.chunkBytes)
                bytesRead += Int64(count)
                if count == 0 {
                    atEnd = true
                    continue
                }
            }
            let byte = chunk[position]
            position += 1
            if let item = take(byte) { return item }
        }
        return nil
    }

    /// The file ended: an entry cut short is handed back first, then the reason.
    private mutating func end() -> HARItem? {
        finished = true
        if !started {
            problem = "the file is empty, so not a HAR capture"
        } else if !stack.isEmpty {
            problem =
                "the file ends before its JSON does (after \(bytesRead) bytes): a capture cut short, an export that did not finish"
            if capturing {
                capturing = false
                return .cut(index: entryCount - 1)
            }
        } else if !foundEntries {
            problem = Self.noEntries
        }
        return nil
    }

    static var noEntries: String {
        "it has no log.entries, so it is not a HAR capture (HAR 1.2: {\"log\":{\"entries\":[...]}})"
    }

    private mutating func append(_ byte: UInt8) {
        guard capturing, !captureTooLarge else { return }
        if capture.count >= Self.maxEntryBytes {
            captureTooLarge = true
            capture = []
        } else {
            capture.append(byte)
        }
    }

    /// An element of `log.entries` is complete.
    private mutating func finishEntry() -> HARItem {
        capturing = false
        let index = entryCount - 1
        if captureTooLarge { return .tooLarge(index: index) }
        defer { capture = [] }
        return .entry(index: index, bytes: capture)
    }

    /// Takes one byte; returns an entry when it completes one.
    private mutating func take(_ byte: UInt8) -> HARItem? {
        if !started {
            // A byte order mark, then whitespace, then the object that a HAR file is.
            if byte == 0xEF || byte == 0xBB || byte == 0xBF || Self.isSpace(byte) { return nil }
            started = true
            guard byte == UInt8(ascii: "{") else {
                finished = true
                problem = "not JSON: it starts with \(Self.shown(byte)) where a HAR file starts with {"
                return nil
            }
            stack.append(.object(key: []))
            expectingKey = true
            return nil
        }
        if inString {
            append(byte)
            if escaped {
                escaped = false
                key?.append(byte)
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
                key?.append(byte)
            } else if byte == UInt8(ascii: "\"") {
                inString = false
                if let read = key {
                    key = nil
                    if case .object = stack.last { stack[stack.count - 1] = .object(key: read) }
                } else if capturing && stack.count == 3 {
                    return finishEntry()
                }
            } else if key != nil {
                // Past 16 bytes it is neither `log` nor `entries`; it stops growing.
                if key!.count <= 16 { key!.append(byte) }
            }
            return nil
        }
        if Self.isSpace(byte) {
            if capturing && stack.count == 3 { return finishEntry() }
            append(byte)
            return nil
        }
        switch byte {
        case UInt8(ascii: "\""):
            if expectingKey {
                expectingKey = false
                if stack.count <= 2 { key = [] }
            } else {
                startEntryIfDue()
            }
            append(byte)
            inString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            startEntryIfDue()
            append(byte)
            stack.append(byte == UInt8(ascii: "{") ? .object(key: []) : .array)
            expectingKey = byte == UInt8(ascii: "{")
            if inEntries { foundEntries = true }
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            if capturing && stack.count == 3 {
                // A scalar element ends at the array's close.
                let item = finishEntry()
                close()
                return item
            }
            append(byte)
            close()
            if capturing && stack.count == 3 { return finishEntry() }
            if stack.isEmpty {
                // The whole JSON value is read; what may follow it is not looked at.
                finished = true
                if !foundEntries { problem = Self.noEntries }
            }
        case UInt8(ascii: ","):
            if capturing && stack.count == 3 { return finishEntry() }
            append(byte)
            if case .object = stack.last { expectingKey = true }
        default:
            startEntryIfDue()
            append(byte)
        }
        return nil
    }

    /// A value begins: when it is an element of `log.entries`, its bytes are kept from here.
    private mutating func startEntryIfDue() {
        guard !capturing, inEntries else { return }
        foundEntries = true
        capturing = true
        captureTooLarge = false
        capture = []
        entryCount += 1
    }

    private mutating func close() {
        if !stack.isEmpty { stack.removeLast() }
        if inEntries { foundEntries = true }
        expectingKey = false
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// A byte as a person reads it in a message.
    static func shown(_ byte: UInt8) -> String {
        byte >= 0x21 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }
}
