/// Byte equality and a short hash, eight bytes at a time: the request parameters' names are
/// looked up by them on every request.
public enum ByteEquality {
    /// Whether `a` and `b` hold the same bytes.
    @inlinable @inline(__always)
    public static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = a.count
        guard n == b.count else { return false }
        guard n > 0, let pa = a.baseAddress, let pb = b.baseAddress else { return true }
        let ra = UnsafeRawPointer(pa)
        let rb = UnsafeRawPointer(pb)
        var i = 0
        while i + 8 <= n {
            if ByteWord.load(ra, at: i) != ByteWord.load(rb, at: i) { return false }
            i += 8
        }
        while i < n {
            if pa[i] != pb[i] { return false }
            i += 1
        }
        return true
    }

    /// A hash of the length and the first and last eight bytes: enough to tell a fixed set of
    /// names apart (the known parameters), and a few multiplications instead of one per byte. Not
    /// for names a client chooses, which could all collide.
    @inlinable @inline(__always)
    public static func shortHash(_ name: UnsafeBufferPointer<UInt8>) -> UInt32 {
        let k: UInt64 = 0x9E37_79B9_7F4A_7C15
        let n = name.count
        var h = UInt64(n) &* k
        guard let base = name.baseAddress, n > 0 else { return UInt32(truncatingIfNeeded: h >> 32) }
        if n >= 8 {
            let raw = UnsafeRawPointer(base)
            h = (h ^ raw.loadUnaligned(as: UInt64.self)) &* k
            h = (h ^ raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)) &* k
        } else {
            var word: UInt64 = 0
            for i in 0..<n { word |= UInt64(base[i]) << (8 * UInt64(i)) }
            h = (h ^ word) &* k
        }
        return UInt32(truncatingIfNeeded: h >> 32)
    }
}
