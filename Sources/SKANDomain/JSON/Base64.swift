/// Standard base64 (RFC 4648 §4, padded), for bytes that must be kept exactly where JSON holds
/// text: an answer that is not UTF-8 is written as `body_base64` instead of `body` (journal,
/// replay file), so what is replayed is what was received. The domain has no Foundation.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    public static func encode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        let input = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity((input.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= input.count {
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            for shift in stride(from: 18, through: 0, by: -6) {
                output.append(alphabet[Int(chunk >> UInt32(shift) & 63)])
            }
            index += 3
        }
        let rest = input.count - index
        if rest > 0 {
            let chunk = UInt32(input[index]) << 16 | (rest == 2 ? UInt32(input[index + 1]) << 8 : 0)
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            output.append(rest == 2 ? alphabet[Int(chunk >> 6 & 63)] : UInt8(ascii: "="))
            output.append(UInt8(ascii: "="))
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of padded base64 text, or nil when it is not that (wrong length, a character
    /// outside the alphabet, padding anywhere but at the end).
    public static func decode(_ text: String) -> [UInt8]? {
        let input = Array(text.utf8)
        guard input.count % 4 == 0 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(input.count / 4 * 3)
        var index = 0
        while index < input.count {
            let isLast = index + 4 == input.count
            var chunk: UInt32 = 0
            var padding = 0
            for offset in 0..<4 {
                let byte = input[index + offset]
                if byte == UInt8(ascii: "=") && isLast && offset >= 2 {
                    padding += 1
                    chunk <<= 6
                    continue
                }
                let value = values[Int(byte)]
                guard value != 0xFF, padding == 0 else { return nil }
                chunk = chunk << 6 | UInt32(value)
            }
            output.append(UInt8(chunk >> 16 & 0xFF))
            if padding < 2 { output.append(UInt8(chunk >> 8 & 0xFF)) }
            if padding < 1 { output.append(UInt8(chunk & 0xFF)) }
            index += 4
        }
        return output
    }

    /// Whether `bytes` are valid UTF-8, and so can be written as JSON text unchanged.
    public static func isUTF8<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
