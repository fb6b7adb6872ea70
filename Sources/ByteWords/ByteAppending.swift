/// Where text is written a byte at a time: a `[UInt8]`, or a `JSONWriter` (a journal line's
/// timestamp goes straight into the line).
public protocol ByteAppending: ~Copyable {
    mutating func append(_ byte: UInt8)
}

extension Array: ByteAppending where Element == UInt8 {}
