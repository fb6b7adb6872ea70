/// `application/x-www-form-urlencoded`, the encoding of query strings and form bodies (WHATWG URL
/// standard): pairs split on `&`, name and value on the first `=`, `+` is a space, `%XX` a byte.
/// Malformed escapes are kept as they came rather than rejected, as browsers and Singular do.
public enum FormURLEncoding {
    /// The pairs in order, repeated names included; empty pieces (`a=1&&b=2`) are skipped.
    public static func pairs<Text: StringProtocol>(_ text: Text) -> [(name: String, value: String)] {
        var result: [(name: String, value: String)] = []
        for piece in text.split(separator: "&") {
            if let equals = piece.firstIndex(of: "=") {
                result.append((percentDecode(piece[..<equals]), percentDecode(piece[piece.index(after: equals)...])))
            } else {
                result.append((percentDecode(piece), ""))
            }
        }
        return result
    }

    public static func pairs(_ body: [UInt8]) -> [(name: String, value: String)] {
        pairs(String(decoding: body, as: UTF8.self))
    }

    public static func percentDecode<Text: StringProtocol>(_ text: Text, plusAsSpace: Bool = true) -> String {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let first = utf8.index(after: index)
                if first != utf8.endIndex, let high = ASCII.hexValue(utf8[first]) {
                    let second = utf8.index(after: first)
                    if second != utf8.endIndex, let low = ASCII.hexValue(utf8[second]) {
                        bytes.append(UInt8(high * 16 + low))
                        index = utf8.index(after: second)
                        continue
                    }
                }
                bytes.append(byte)
            } else if plusAsSpace && byte == UInt8(ascii: "+") {
                bytes.append(ASCII.space)
            } else {
                bytes.append(byte)
            }
            index = utf8.index(after: index)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
