/// RFC 3986's characters as the server's URL readers need them, said once: what a path may hold
/// unencoded, and a `%` that is no escape. Route aliases (`RouteAlias`) and the postback sender's
/// `url` (`PostbackTarget`) read paths by the same rules.
enum URICharacters {
    /// A path's characters sent as is: the unreserved ones, the sub-delims, `:`, `@` and `/`.
    static func isPathCharacter(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.isASCII else { return false }
        let c = Character(scalar)
        return c.isLetter || c.isNumber || "-._~!$&'()*+,;=:@/".contains(c)
    }

    /// The first `%` in `text` not followed by two hex digits, with what follows it, or nil.
    static func badEscape(_ text: Substring) -> String? {
        let bytes = Array(text.utf8)
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "%") {
            let escape = String(decoding: bytes[index..<min(index + 3, bytes.count)], as: UTF8.self)
            guard index + 2 < bytes.count, bytes[(index + 1)...(index + 2)].allSatisfy(\.isHexDigit) else {
                return escape
            }
        }
        return nil
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}
