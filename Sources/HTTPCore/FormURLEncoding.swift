import ByteWords

/// `application/x-www-form-urlencoded`, the encoding of query strings and form bodies (WHATWG URL
/// standard): pairs split on `&`, name and value on the first `=`, `+` is a space, `%XX` a byte.
/// Malformed escapes are kept as they came rather than rejected, as browsers do.
///
/// Everything works on UTF-8 bytes (the standard's own model: split, percent-decode, then decode
/// UTF-8, invalid sequences becoming U+FFFD); a query of 30 parameters is on every request's path.
public enum FormURLEncoding {
    /// The pairs in order, repeated names included; empty pieces (`a=1&&b=2`) are skipped.
    public static func pairs<Text: StringProtocol>(_ text: Text) -> [(name: String, value: String)] {
        if let result = text.utf8.withContiguousStorageIfAvailable({ pairs(utf8: $0) }) { return result }
        return Array(text.utf8).withUnsafeBufferPointer { pairs(utf8: $0) }
    }

    public static func pairs(_ text: Substring) -> [(name: String, value: String)] {
        var text = text
        return text.withUTF8 { pairs(utf8: $0) }
    }

    public static func pairs(_ text: String) -> [(name: String, value: String)] {
        var text = text
        return text.withUTF8 { pairs(utf8: $0) }
    }

    public static func pairs(_ body: [UInt8]) -> [(name: String, value: String)] {
        body.withUnsafeBufferPointer { pairs(utf8: $0) }
    }

    static func pairs(utf8: UnsafeBufferPointer<UInt8>) -> [(name: String, value: String)] {
        var result: [(name: String, value: String)] = []
        forEachField(utf8: utf8) { name, value in
            result.append((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
        }
        return result
    }

    /// Calls `body` with each field's decoded name and value bytes, in order, without making
    /// strings: a caller that keeps them all in one buffer pays no allocation per field. The
    /// buffers are valid only during the call; the bytes may not be valid UTF-8.
    public static func forEachField(
        _ text: Substring, _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Void
    ) {
        var text = text
        text.withUTF8 { forEachField(utf8: $0, body) }
    }

    public static func forEachField(
        _ bytes: [UInt8], _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Void
    ) {
        bytes.withUnsafeBufferPointer { forEachField(utf8: $0, body) }
    }

    static func forEachField(
        utf8: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Void
    ) {
        // Decoding never lengthens: one scratch buffer the size of the input holds any field.
        let special = Self.special
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, utf8.count)) { scratch in
            var start = 0
            let end = utf8.count
            while start < end {
                var stop = start
                var equals = -1
                var escaped = false
                // From one special byte to the next, a word at a time (the plain runs between them
                // are most of a query; percent-encoded JSON has one every three bytes).
                while true {
                    stop = ByteScan.firstIndex(of: special, in: utf8, from: stop, to: end)
                    guard stop < end else { break }
                    let byte = utf8[stop]
                    if byte == UInt8(ascii: "&") { break }
                    if byte == UInt8(ascii: "=") {
                        if equals < 0 { equals = stop }
                    } else {
                        escaped = true  // `%` or `+`
                    }
                    stop += 1
                }
                if stop > start {
                    let nameEnd = equals >= 0 ? equals : stop
                    let valueStart = equals >= 0 ? equals + 1 : stop
                    if !escaped {
                        body(
                            UnsafeBufferPointer(rebasing: utf8[start..<nameEnd]),
                            UnsafeBufferPointer(rebasing: utf8[valueStart..<stop]))
                    } else {
                        let nameCount = decode(utf8, start, nameEnd, plusAsSpace: true, into: scratch, at: 0)
                        let valueCount = decode(utf8, valueStart, stop, plusAsSpace: true, into: scratch, at: nameCount)
                        body(
                            UnsafeBufferPointer(rebasing: scratch[0..<nameCount]),
                            UnsafeBufferPointer(rebasing: scratch[nameCount..<(nameCount + valueCount)]))
                    }
                }
                start = stop + 1
            }
        }
    }

    /// The bytes the field loop stops at.
    private static let special = ByteScan.Set(
        UInt8(ascii: "&"), UInt8(ascii: "="), UInt8(ascii: "%"), UInt8(ascii: "+"))

    /// Percent-encodes `text` as a query's name or value: RFC 3986's unreserved characters stay as
    /// they are, every other byte of its UTF-8 becomes `%XX`.
    public static func encode(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    public static func percentDecode<Text: StringProtocol>(_ text: Text, plusAsSpace: Bool = true) -> String {
        if let result = text.utf8.withContiguousStorageIfAvailable({ decode($0, 0, $0.count, plusAsSpace: plusAsSpace) }
        ) {
            return result
        }
        return Array(text.utf8).withUnsafeBufferPointer { decode($0, 0, $0.count, plusAsSpace: plusAsSpace) }
    }

    /// Decodes `utf8[from..<to]`.
    static func decode(_ utf8: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int, plusAsSpace: Bool) -> String {
        var plain = true
        for index in from..<to {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") || (plusAsSpace && byte == UInt8(ascii: "+")) {
                plain = false
                break
            }
        }
        if plain { return String(decoding: UnsafeBufferPointer(rebasing: utf8[from..<to]), as: UTF8.self) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: to - from) { out in
            let count = decode(utf8, from, to, plusAsSpace: plusAsSpace, into: out, at: 0)
            return String(decoding: UnsafeBufferPointer(rebasing: out[0..<count]), as: UTF8.self)
        }
    }

    /// Decodes `utf8[from..<to]` into `out` from `at`; returns how many bytes it wrote.
    static func decode(
        _ utf8: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int, plusAsSpace: Bool,
        into out: UnsafeMutableBufferPointer<UInt8>, at: Int
    ) -> Int {
        var count = at
        var index = from
        while index < to {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%"), index + 2 < to, let high = ASCII.hexValue(utf8[index + 1]),
                let low = ASCII.hexValue(utf8[index + 2])
            {
                out[count] = UInt8(high * 16 + low)
                index += 3
            } else {
                out[count] = plusAsSpace && byte == UInt8(ascii: "+") ? ASCII.space : byte
                index += 1
            }
            count += 1
        }
        return count - at
    }
}
