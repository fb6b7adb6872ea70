import HTTPCore

/// What the HTTP fuzzer checks on one input. Any violated property stops the process (`fatalError`),
/// which libFuzzer records as a crash:
/// - the parser never traps (index out of range, overflow, ...), under ASan;
/// - an error's status is one of 400, 413, 414, 431, 501, 505, and errors are sticky;
/// - an accepted request is well formed (target starts with `/` or is `*`, tokens in names, no
///   control characters in values, body within the limit);
/// - the result does not depend on how the bytes were split: whole, one byte at a time, and in
///   pieces chosen from the input itself give the same requests and the same failed/not-failed end.
/// Each input runs with the default limits and with small ones, so 413/414/431 are reachable.
public enum HTTPParserHarness {
    public static let allowedStatuses: Set<Int> = [400, 413, 414, 431, 501, 505]

    public static let smallLimits: HTTPLimits = {
        var limits = HTTPLimits()
        limits.maxRequestLineBytes = 64
        limits.maxHeaderBytes = 128
        limits.maxHeaderCount = 4
        limits.maxBodyBytes = 64
        return limits
    }()

    /// A request reduced to what can be compared.
    public struct Parsed: Equatable, CustomStringConvertible {
        public var method: String
        public var target: String
        public var version: String
        public var headers: [String]
        public var body: [UInt8]

        init(_ request: HTTPRequest) {
            method = request.method.rawValue
            target = request.target
            version = request.version.description
            headers = request.headers.map { "\($0.name): \($0.value)" }
            body = request.body
        }

        public var description: String { "\(method) \(target) \(version) \(headers) body=\(body.count)B" }
    }

    public struct Result {
        public var requests: [Parsed] = []
        public var error: HTTPParseError?
        /// Bytes still buffered (a partial request) when the input ran out without an error.
        public var leftover = 0
    }

    /// Feeds `bytes` in pieces of the given sizes (the rest in one last piece), draining requests after each.
    public static func parse(_ bytes: [UInt8], limits: HTTPLimits = HTTPLimits(), pieces: [Int] = []) -> Result {
        var parser = HTTPRequestParser(limits: limits)
        var result = Result()
        var offset = 0
        var sizes = pieces[...]
        while true {
            let size = sizes.popFirst() ?? (bytes.count - offset)
            let end = min(bytes.count, offset + max(size, 0))
            parser.append(bytes[offset..<end])
            offset = end
            do {
                while let request = try parser.next() {
                    check(request, limits: limits, bytes: bytes)
                    result.requests.append(Parsed(request))
                }
            } catch {
                result.error = error
                checkSticky(&parser, error, bytes: bytes)
                return result
            }
            if offset == bytes.count { break }
        }
        result.leftover = parser.bufferedByteCount
        return result
    }

    public static func check(_ bytes: [UInt8]) {
        for limits in [HTTPLimits(), smallLimits] {
            let whole = parse(bytes, limits: limits)
            if let error = whole.error, !allowedStatuses.contains(error.status.code) {
                fail("unexpected status \(error)", bytes)
            }
            let splits: [[Int]] = [Array(repeating: 1, count: bytes.count), pieces(for: bytes)]
            for split in splits {
                let other = parse(bytes, limits: limits, pieces: split)
                if other.requests != whole.requests || (other.error == nil) != (whole.error == nil) {
                    fail(
                        """
                        split \(split.prefix(16)) changes the result:
                          whole: \(whole.requests) error=\(whole.error.map(String.init(describing:)) ?? "none")
                          split: \(other.requests) error=\(other.error.map(String.init(describing:)) ?? "none")
                        """, bytes)
                }
            }
        }
    }

    /// Piece sizes (1...16) drawn from a hash of the input, so they are fixed for a given input.
    static func pieces(for bytes: [UInt8]) -> [Int] {
        var state: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { state = (state ^ UInt64(byte)) &* 0x100_0000_01b3 }
        var sizes: [Int] = []
        var total = 0
        while total < bytes.count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let size = Int((state >> 33) % 16) + 1
            sizes.append(size)
            total += size
        }
        return sizes
    }

    static func check(_ request: HTTPRequest, limits: HTTPLimits, bytes: [UInt8]) {
        let method = Array(request.method.rawValue.utf8)
        if method.isEmpty || !method.allSatisfy(isToken) { fail("accepted method \(request.method)", bytes) }
        if !(request.target.hasPrefix("/") || request.target == "*") {
            fail("accepted target \(request.target)", bytes)
        }
        if request.target.utf8.contains(where: { $0 <= 0x20 || $0 >= 0x7F }) {
            fail("control, space or non-ASCII byte in target \(request.target)", bytes)
        }
        if request.body.count > limits.maxBodyBytes { fail("body of \(request.body.count) bytes accepted", bytes) }
        if request.headers.count > limits.maxHeaderCount { fail("\(request.headers.count) headers accepted", bytes) }
        for (name, value) in request.headers {
            let nameBytes = Array(name.utf8)
            if nameBytes.isEmpty || !nameBytes.allSatisfy(isToken) { fail("accepted header name \(name)", bytes) }
            if value.utf8.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
                fail("control character in accepted value of \(name)", bytes)
            }
            if let first = value.utf8.first, first == 0x20 || first == 0x09 {
                fail("untrimmed value of \(name)", bytes)
            }
            if let last = value.utf8.last, last == 0x20 || last == 0x09 { fail("untrimmed value of \(name)", bytes) }
        }
        let lengths = request.headers.values(for: "Content-Length")
        let codings = request.headers.values(for: "Transfer-Encoding")
        if !lengths.isEmpty && !codings.isEmpty { fail("accepted both Content-Length and Transfer-Encoding", bytes) }
        if request.headers.values(for: "Host").count > 1 { fail("accepted two Host fields", bytes) }
    }

    static func checkSticky(_ parser: inout HTTPRequestParser, _ error: HTTPParseError, bytes: [UInt8]) {
        parser.append([
            0x47, 0x45, 0x54, 0x20, 0x2F, 0x20, 0x48, 0x54, 0x54, 0x50, 0x2F, 0x31, 0x2E, 0x30, 0x0D, 0x0A, 0x0D, 0x0A
        ])
        do {
            if let request = try parser.next() { fail("parser returned \(Parsed(request)) after \(error)", bytes) }
            fail("parser returned nil after \(error)", bytes)
        } catch let again {
            if again != error { fail("error changed from \(error) to \(again)", bytes) }
        }
    }

    static func isToken(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}

/// Stops the process with the property that failed and the input, escaped, for the report.
func fail(_ message: String, _ bytes: [UInt8]) -> Never {
    fatalError("\(message)\ninput (\(bytes.count) bytes): \(escaped(bytes))")
}

public func escaped(_ bytes: [UInt8]) -> String {
    var text = ""
    for byte in bytes.prefix(2048) {
        switch byte {
        case 0x0D: text += "\\r"
        case 0x0A: text += "\\n"
        case 0x09: text += "\\t"
        case 0x5C: text += "\\\\"
        case 0x20..<0x7F: text.unicodeScalars.append(Unicode.Scalar(byte))
        default: text += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }
    }
    return text
}
