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
                // XOR makes each byte equal to `byte` zero. A zero byte is the only one whose high
                // bit is set by subtracting 1 (it borrows) while clear in the byte itself: so
                // `(x - 0x01..01) & ~x & 0x80..80` is non-zero exactly when some byte of x is zero
                // (a borrow can flag a 0x01 above a zero too, but only then; the byte loop settles it).
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
                // A byte below 0x21 turns its high bit on when 0x21 is subtracted (and had it off):
                // the zero-byte test above, shifted to "less than 0x21".
                let below = (x &- ones &* 0x21) & ~x & highs
                // A byte of 0x7F or more has its high bit on after adding 1 (0x7F + 1 = 0x80), or
                // had it on already (0x80 and up): "greater than 0x7E".
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

    /// The index of the first byte of `set` in `bytes[from..<to]`, or `to`: a word at a time, the
    /// match's place read from the lowest flagged byte (a borrow can only flag a byte above a true
    /// match, never below it), so text dense with matches costs one word per match.
    @inline(__always)
    static func firstIndex(of set: Set, in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int {
        var i = from
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            let p = set.patterns
            func zero(_ y: UInt64) -> UInt64 { (y &- ones) & ~y & highs }
            while i + 8 <= to {
                // Little-endian load: byte k of the text is bits 8k...8k+7 of the word.
                let x = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                let found = zero(x ^ p.0) | zero(x ^ p.1) | zero(x ^ p.2) | zero(x ^ p.3)
                if found != 0 { return i + found.trailingZeroBitCount / 8 }
                i += 8
            }
            while i < to {
                let b = UInt64(bytes[i]) &* ones
                if b == p.0 || b == p.1 || b == p.2 || b == p.3 { return i }
                i += 1
            }
        }
        return to
    }
}
