import ByteWords
import Testing

/// Each word trick against the plain byte test it stands for: every byte value, at every position
/// of the word, beside bytes that do and do not match (a false flag needs a true one below it, so
/// only the lowest flag is compared, and "none" exactly).
@Suite struct ByteWordTests {
    private func word(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { ByteWord.load($0.baseAddress!, at: 0) }
    }

    /// The lowest flagged byte, or nil: what every scan reads.
    private func lowest(_ flags: UInt64) -> Int? { flags == 0 ? nil : ByteWord.firstFlagged(flags) }

    private func check(
        _ name: String, flags: (UInt64) -> UInt64, matches: (UInt8) -> Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for value in 0...255 {
            let byte = UInt8(value)
            for position in 0..<8 {
                for filler: UInt8 in [0x00, 0x01, 0x20, 0x41, 0x7F, 0x80, 0xFF] {
                    var bytes = [UInt8](repeating: filler, count: 8)
                    bytes[position] = byte
                    let expected = bytes.firstIndex(where: matches)
                    if lowest(flags(word(bytes))) != expected {
                        Issue.record(
                            "\(name): byte \(byte) at \(position) among \(filler): \(String(describing: lowest(flags(word(bytes))))) instead of \(String(describing: expected))",
                            sourceLocation: sourceLocation)
                        return
                    }
                }
            }
        }
    }

    @Test func eachFlagTestAgreesWithTheByteTest() {
        check("zero", flags: ByteWord.zeroFlags, matches: { $0 == 0 })
        check("equal 0x22", flags: { ByteWord.equalFlags($0, ByteWord.repeating(0x22)) }, matches: { $0 == 0x22 })
        check("below 0x20", flags: { ByteWord.belowFlags($0, 0x20) }, matches: { $0 < 0x20 })
        check("below 0x21", flags: { ByteWord.belowFlags($0, 0x21) }, matches: { $0 < 0x21 })
        check("0x7F and up", flags: ByteWord.atLeast0x7FFlags, matches: { $0 >= 0x7F })
    }

    @Test func theLoadIsLittleEndianWhateverTheAlignment() {
        let bytes: [UInt8] = Array(0...16)
        bytes.withUnsafeBytes { raw in
            for offset in 0...8 {
                let w = ByteWord.load(raw.baseAddress!, at: offset)
                #expect(w & 0xFF == UInt64(offset))
                #expect(w >> 56 == UInt64(offset + 7))
            }
        }
    }

    @Test func equalityAndTheASCIICheckAgreeWithTheBytesAtEveryLength() {
        for length in 0..<40 {
            let a = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) & 0x7F }
            a.withUnsafeBufferPointer { pa in
                #expect(pa.isASCII)
                #expect(ByteEquality.same(pa, pa))
            }
            for position in 0..<length {
                var b = a
                b[position] ^= 0x80
                a.withUnsafeBufferPointer { pa in
                    b.withUnsafeBufferPointer { pb in
                        #expect(!pb.isASCII, "length \(length) position \(position)")
                        #expect(!ByteEquality.same(pa, pb), "length \(length) position \(position)")
                    }
                }
            }
        }
        let short: [UInt8] = [1, 2]
        let long: [UInt8] = [1, 2, 3]
        short.withUnsafeBufferPointer { s in long.withUnsafeBufferPointer { l in #expect(!ByteEquality.same(s, l)) } }
    }

    @Test func theShortHashTellsTheLengthAndBothEndsApart() {
        func hash(_ text: String) -> UInt32 { Array(text.utf8).withUnsafeBufferPointer { ByteEquality.shortHash($0) } }
        #expect(hash("p0_coarse") != hash("p1_coarse"))
        #expect(hash("p0_coarse") != hash("p0_coarsE"))
        #expect(hash("a") != hash("aa"))
        #expect(hash("") == hash(""))
        #expect(hash("skan_current_conversion_value") == hash("skan_current_conversion_value"))
    }
}
