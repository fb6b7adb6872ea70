/// Apple's property list formats told apart by their first bytes, as CoreFoundation does: a
/// binary list starts with `bplist00`, an XML one with `<?xml`, `<!DOCTYPE` or `<plist` (after
/// an optional byte order mark and white space). Other formats (OpenStep text, `bplist15`+) are
/// refused by name: Xcode writes an app's Info.plist in one of the two.
public enum PropertyList {
    public enum Format: Sendable, Equatable {
        case binary, xml
    }

    /// The format `bytes` start with, or nil when they start as neither.
    public static func format<Bytes: Collection<UInt8>>(of bytes: Bytes) -> Format? {
        if bytes.starts(with: BinaryPropertyList.magic) { return .binary }
        var rest = bytes[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        rest = rest.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        for opening in ["<?xml", "<!DOCTYPE", "<plist"] where rest.starts(with: opening.utf8) { return .xml }
        return nil
    }

    /// The property list in `bytes`, or why it is not one.
    public static func read(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
        switch format(of: bytes) {
        case .binary: return try BinaryPropertyList.read(bytes)
        case .xml: return try XMLPropertyList.read(bytes)
        case nil:
            if bytes.starts(with: "bplist".utf8) {
                let version = String(decoding: bytes.prefix(8).dropFirst(6), as: UTF8.self)
                throw PropertyListError(
                    "a binary property list of version \(version), where only bplist00 is read; save it with Xcode or `plutil -convert binary1`"
                )
            }
            throw PropertyListError(
                "not a property list: it starts with neither bplist00 nor <?xml or <plist (convert it with `plutil -convert xml1`)"
            )
        }
    }
}
