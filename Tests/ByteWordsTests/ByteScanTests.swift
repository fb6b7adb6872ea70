import ByteWords
import Testing

/// The word-at-a-time scans must agree with a plain byte loop for every byte value at every
/// position and alignment.
@Suite struct ByteScanTests {
    @Test func findsEveryByteAtEveryPosition() {
        for needle: UInt8 in [0x0A, 0x20, 0x00, 0x80, 0xFF] {
            for length in 0..<40 {
                for position in 0...length {
                    var bytes = [UInt8](repeating: needle == 0x41 ? 0x42 : 0x41, count: length)
                    if position < length { bytes[position] = needle }
                    for from in 0...min(3, length) {
                        let found = bytes.withUnsafeBufferPointer {
                            ByteScan.firstIndex(of: needle, in: $0, from: from, to: length)
                        }
                        let expected = bytes.indices.first { $0 >= from && bytes[$0] == needle }
                        #expect(
                            found == expected, "needle \(needle) length \(length) position \(position) from \(from)")
                    }
                }
            }
        }
    }

    /// The set search reads the match's place from the lowest flagged byte of a word: it must be
    /// the first match whatever follows it (a borrow flags bytes above a match, never below), for
    /// matches dense and sparse, at every alignment, and with bytes that differ from a member by
    /// one (0x01 above a match is where a borrow could be mistaken for a match).
    @Test func findsTheFirstByteOfASetAtEveryPosition() {
        let set = ByteScan.Set(UInt8(ascii: "&"), UInt8(ascii: "="), UInt8(ascii: "%"), UInt8(ascii: "+"))
        let members: Set<UInt8> = [0x26, 0x3D, 0x25, 0x2B]
        let fillers: [UInt8] = [0x41, 0x27, 0x3E, 0x26 ^ 0x80, 0x00, 0xFF]
        for filler in fillers {
            for length in 0..<26 {
                for first in 0...length {
                    for second in [first + 1, first + 2, first + 8, length] where second <= length {
                        var bytes = [UInt8](repeating: filler, count: length)
                        if first < length { bytes[first] = members.sorted()[first % 4] }
                        if second < length { bytes[second] = members.sorted()[second % 4] }
                        for from in 0...min(2, length) {
                            let found = bytes.withUnsafeBufferPointer {
                                ByteScan.firstIndex(of: set, in: $0, from: from, to: length)
                            }
                            let expected = bytes.indices.first { $0 >= from && members.contains(bytes[$0]) } ?? length
                            #expect(
                                found == expected,
                                "filler \(filler) length \(length) at \(first), \(second) from \(from)")
                        }
                    }
                }
            }
        }
    }

    @Test func targetRunsStopAtTheFirstByteOutsideVisibleASCII() {
        for bad in Array(UInt8(0)...UInt8(0x20)) + Array(UInt8(0x7F)...UInt8(0xFF)) {
            for position in 0..<20 {
                var bytes = Array("/api/v2/conversion_value?a=1".utf8.prefix(20))
                bytes[position] = bad
                let run = bytes.withUnsafeBufferPointer { ByteScan.targetRun(in: $0, from: 0, to: $0.count) }
                #expect(run == position, "byte \(bad) at \(position)")
            }
        }
        let visible = (UInt8(0x21)...UInt8(0x7E)).map { $0 }
        #expect(visible.withUnsafeBufferPointer { ByteScan.targetRun(in: $0, from: 0, to: $0.count) } == visible.count)
    }
}
