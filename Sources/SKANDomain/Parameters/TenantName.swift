/// The name of a tenant, the `NAME` of the `/t/NAME` path prefix: what every journal line of the
/// tenant's requests carries (`"tenant"`), and what `report --tenant` selects. The rule keeps a
/// name safe in a URL path, a file name and a Prometheus label without escaping.
public enum TenantName {
    /// The longest name, in bytes.
    public static let maxLength = 64

    /// The rule, as a refusal states it.
    public static let rule =
        "a tenant name is a letter or digit followed by up to 63 letters, digits, '.', '_' or '-'"

    /// Whether `name` follows the rule (ASCII letters and digits only).
    public static func isValid(_ name: some Collection<UInt8>) -> Bool {
        Array(name).withUnsafeBufferPointer { isValid($0) }
    }

    /// The same on bytes in place: what every request to a tenant checks (a generic collection,
    /// unspecialised across modules, cost about 2,000 instructions a request).
    public static func isValid(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = name.first, name.count <= maxLength, isAlphanumeric(first) else { return false }
        for byte in name
        where
            !(isAlphanumeric(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "-"))
        {
            return false
        }
        return true
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
