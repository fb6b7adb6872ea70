/// Eight bytes read as one `UInt64`, and the tests that flag bytes of it in one go (SWAR, the word
/// tricks of "Bit Twiddling Hacks"). Every word-at-a-time scan of the server is built on these, so
/// each trick is written, explained and tested once: `ByteScan` (the request target, the end of a
/// head, form fields), `JSONWriter`'s escapes, `isASCII`, `ByteEquality` and `ByteHash`.
///
/// A flag is the high bit of a byte. Flags above a true one may be false (a borrow carries into
/// the next byte); the lowest flag never is, so a scan reads the match's place from the lowest.
public enum ByteWord {
    /// 0x01 in every byte.
    @inlinable public static var ones: UInt64 { 0x0101_0101_0101_0101 }
    /// 0x80 in every byte: the flags.
    @inlinable public static var highs: UInt64 { 0x8080_8080_8080_8080 }

    /// `byte` in every byte of a word.
    @inlinable public static func repeating(_ byte: UInt8) -> UInt64 { ones &* UInt64(byte) }

    /// The eight bytes at `offset`, byte k of memory in bits 8k...8k+7 (little-endian), whatever
    /// the alignment.
    @inlinable @inline(__always)
    public static func load(_ raw: UnsafeRawPointer, at offset: Int) -> UInt64 {
        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// Flags the bytes of `x` that are zero. A zero byte is the only one whose high bit is set by
    /// subtracting 1 (it borrows) while clear in the byte itself.
    @inlinable @inline(__always)
    public static func zeroFlags(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }

    /// Flags the bytes of `x` equal to the byte repeated in `pattern` (`repeating(_:)`).
    @inlinable @inline(__always)
    public static func equalFlags(_ x: UInt64, _ pattern: UInt64) -> UInt64 { zeroFlags(x ^ pattern) }

    /// Flags the bytes of `x` below `limit` (at most 0x80): the zero test, shifted.
    @inlinable @inline(__always)
    public static func belowFlags(_ x: UInt64, _ limit: UInt8) -> UInt64 {
        (x &- ones &* UInt64(limit)) & ~x & highs
    }

    /// Flags the bytes of `x` of 0x7F or more: 0x7F + 1 sets the high bit, and 0x80 and up have it.
    @inlinable @inline(__always)
    public static func atLeast0x7FFlags(_ x: UInt64) -> UInt64 { ((x &+ ones) | x) & highs }

    /// The index, within the word, of the byte of the lowest flag (`flags` not zero).
    @inlinable @inline(__always)
    public static func firstFlagged(_ flags: UInt64) -> Int { flags.trailingZeroBitCount >> 3 }
}
