import Testing

@testable import HTTPCore

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
