/// Standard base64 with padding, for the profile's `<data>`: a dozen lines instead of Foundation.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// `bytes` encoded, broken into lines of `lineLength` characters (0: one line).
    static func encode(_ bytes: [UInt8], lineLength: Int = 0) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let b0 = bytes[index]
            let b1 = index + 1 < bytes.count ? bytes[index + 1] : 0
            let b2 = index + 2 < bytes.count ? bytes[index + 2] : 0
            output.append(alphabet[Int(b0 >> 2)])
            output.append(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            output.append(index + 1 < bytes.count ? alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)] : UInt8(ascii: "="))
            output.append(index + 2 < bytes.count ? alphabet[Int(b2 & 0x3F)] : UInt8(ascii: "="))
            index += 3
        }
        guard lineLength > 0 else { return String(decoding: output, as: UTF8.self) }
        return stride(from: 0, to: output.count, by: lineLength)
            .map { String(decoding: output[$0..<min($0 + lineLength, output.count)], as: UTF8.self) }
            .joined(separator: "\n")
    }
}
