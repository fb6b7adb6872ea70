/// Scans over request bytes eight at a time (SWAR: the word tricks of "Bit Twiddling Hacks"), for
/// the two long runs in every request: the request target (a SKAN query is about 1 KB) and the
/// search for the line feeds that end the head.
enum ByteScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The index of the first `byte` in `bytes[from..<to]`, or nil.
    static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
        var i = from
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            let pattern = ones &* UInt64(byte)
            while i + 8 <= to {
                let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ pattern
                if (x &- ones) & ~x & highs != 0 { break }
                i += 8
            }
        }
        while i < to {
            if bytes[i] == byte { return i }
            i += 1
        }
        return nil
    }

    /// How many bytes from `from` on are request-target bytes (visible ASCII, 0x21...0x7E).
    static func targetRun(in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int {
        var i = from
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while i + 8 <= to {
                let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                let below = (x &- ones &* 0x21) & ~x & highs
                let above = ((x &+ ones) | x) & highs
                if below | above != 0 { break }
                i += 8
            }
        }
        while i < to && ASCII.isTargetByte(bytes[i]) { i += 1 }
        return i - from
    }

    /// Up to four bytes to look for at once, each repeated across a word.
    struct Set: Sendable {
        let patterns: (UInt64, UInt64, UInt64, UInt64)

        init(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
            patterns = (ones &* UInt64(a), ones &* UInt64(b), ones &* UInt64(c), ones &* UInt64(d))
        }
    }

    /// Whether any of the eight bytes at `bytes[at...]` is in `set` (the caller checks that eight are there).
    @inline(__always)
    static func hasAny(of set: Set, in bytes: UnsafeBufferPointer<UInt8>, at: Int) -> Bool {
        let x = UnsafeRawPointer(bytes.baseAddress!).loadUnaligned(fromByteOffset: at, as: UInt64.self)
        func zero(_ y: UInt64) -> UInt64 { (y &- ones) & ~y & highs }
        let p = set.patterns
        return zero(x ^ p.0) | zero(x ^ p.1) | zero(x ^ p.2) | zero(x ^ p.3) != 0
    }
}
