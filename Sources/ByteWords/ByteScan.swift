/// Scans over request bytes eight at a time, for the long runs in every request: the request
/// target (a SKAN query is about 1 KB), the search for the line feeds that end the head, and the
/// fields of a form-encoded query.
public enum ByteScan {
    /// The index of the first `byte` in `bytes[from..<to]`, or nil.
    @inlinable
    public static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
        var i = from
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            let pattern = ByteWord.repeating(byte)
            while i + 8 <= to {
                // A false flag needs a true one below it: any flag means a match in this word,
                // and the byte loop finds it.
                if ByteWord.equalFlags(ByteWord.load(raw, at: i), pattern) != 0 { break }
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
    @inlinable
    public static func targetRun(in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int {
        var i = from
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while i + 8 <= to {
                let x = ByteWord.load(raw, at: i)
                if ByteWord.belowFlags(x, 0x21) | ByteWord.atLeast0x7FFlags(x) != 0 { break }
                i += 8
            }
        }
        while i < to && bytes[i] > 0x20 && bytes[i] < 0x7F { i += 1 }
        return i - from
    }

    /// Up to four bytes to look for at once, each repeated across a word.
    public struct Set: Sendable {
        @usableFromInline let patterns: (UInt64, UInt64, UInt64, UInt64)

        public init(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
            patterns = (
                ByteWord.repeating(a), ByteWord.repeating(b), ByteWord.repeating(c), ByteWord.repeating(d)
            )
        }
    }

    /// The index of the first byte of `set` in `bytes[from..<to]`, or `to`: a word at a time, the
    /// match's place read from the lowest flag, so text dense with matches costs one word per match.
    @inlinable @inline(__always)
    public static func firstIndex(of set: Set, in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int {
        var i = from
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            let p = set.patterns
            while i + 8 <= to {
                let x = ByteWord.load(raw, at: i)
                let found =
                    ByteWord.equalFlags(x, p.0) | ByteWord.equalFlags(x, p.1) | ByteWord.equalFlags(x, p.2)
                    | ByteWord.equalFlags(x, p.3)
                if found != 0 { return i + ByteWord.firstFlagged(found) }
                i += 8
            }
            while i < to {
                let b = ByteWord.repeating(bytes[i])
                if b == p.0 || b == p.1 || b == p.2 || b == p.3 { return i }
                i += 1
            }
        }
        return to
    }
}
