extension UnsafeBufferPointer where Element == UInt8 {
    /// Whether every byte is below 0x80, eight at a time: every byte of a query and of an answer
    /// passes here on its way into the parameters and the journal line.
    @inlinable @inline(__always)
    public var isASCII: Bool {
        guard let base = baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var i = 0
        var high: UInt64 = 0
        while i + 8 <= count {
            high |= ByteWord.load(raw, at: i)
            i += 8
        }
        var tail: UInt8 = 0
        while i < count {
            tail |= self[i]
            i += 1
        }
        return high & ByteWord.highs == 0 && tail < 0x80
    }
}
