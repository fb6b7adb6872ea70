/// A postback's `transaction-id`: Apple tells ad networks to drop duplicates by it, so each postback
/// needs its own, and reading the same postback again must give the same one. Derived, not stored:
/// a hash of the device, its install's first call (so a reinstall, or the same device id in another
/// QA run, gets new ones), the postback's index, its tier, the framework and whether the ad won,
/// laid out as a UUID version 4 (random-looking bits, RFC 9562 variant).
public enum PostbackTransactionID {
    public static func make(
        device: String, postback: PostbackSimulator.Postback, framework: PostbackQuery.Framework = .skan
    ) -> String {
        let first = postback.firstCallSeconds.map(String.init) ?? "-"
        let key = Array(
            "\(device)\u{0}\(first)\u{0}\(postback.index)\u{0}\(postback.tier)\u{0}\(postback.didWin)\u{0}\(framework.rawValue)"
                .utf8)
        var bytes = bytesOf(fnv1a(key, seed: 0xcbf2_9ce4_8422_2325)) + bytesOf(fnv1a(key, seed: 0x8422_2325_cbf2_9ce4))
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = bytes.map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(
            separator: "-")
    }

    /// FNV-1a (64 bits) with a final mix so that nearby keys spread over all the bits.
    static func fnv1a(_ bytes: [UInt8], seed: UInt64) -> UInt64 {
        var hash = seed
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        hash ^= hash >> 33
        hash = hash &* 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        return hash
    }

    private static func bytesOf(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) }
    }
}
