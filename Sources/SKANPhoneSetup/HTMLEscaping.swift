/// Escaping for text placed in HTML and XML, content or attribute: everything the phone page and the
/// profile show comes from the machine or the user (host names, certificate names), never trusted.
/// Control characters XML 1.0 forbids are written as `\u{1}`-style text, as `JUnitReport` does.
enum HTMLEscaping {
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case "\n", "\t": escaped.unicodeScalars.append(character)
            default:
                // XML 1.0 forbids these even as references (the profile is XML): shown as text.
                let v = character.value
                if v < 0x20 || v == 0xFFFE || v == 0xFFFF {
                    escaped += "\\u{\(String(v, radix: 16))}"
                } else {
                    escaped.unicodeScalars.append(character)
                }
            }
        }
        return escaped
    }
}
