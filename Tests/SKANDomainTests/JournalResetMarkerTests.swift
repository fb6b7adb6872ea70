import SKANDomain
import Testing

/// The reset marker the journal file gets on a clear (issue 30.4): written as one line, read back
/// the same, and told apart from an entry.
struct JournalResetMarkerTests {
    @Test func roundTripsThroughItsLine() throws {
        for marker in [
            JournalResetMarker(through: 41, devices: true), JournalResetMarker(through: 0, devices: false),
            JournalResetMarker(through: 7, devices: true, tenant: "test-1")
        ] {
            let line = marker.line
            #expect(line.last == UInt8(ascii: "\n"))
            let json = try JSONParser.parse(Array(line.dropLast()))
            #expect(JournalResetMarker(json: json) == marker)
            #expect(JournalResetMarker.isMarker(json))
        }
    }

    @Test func anEntryIsNotAMarker() throws {
        let entry = try JSONParser.parse(Array(#"{"id":3,"endpoint":"skan4","type":"x"}"#.utf8))
        #expect(JournalResetMarker(json: entry) == nil)
        #expect(!JournalResetMarker.isMarker(entry))
    }

    @Test func aTenantsMarkerNamesIt() {
        #expect(
            String(decoding: JournalResetMarker(through: 7, devices: true, tenant: "a").line, as: UTF8.self)
                == #"{"type":"reset","through":7,"devices":true,"tenant":"a"}"# + "\n")
        #expect(
            String(decoding: JournalResetMarker(through: 7, devices: false).line, as: UTF8.self)
                == #"{"type":"reset","through":7,"devices":false}"# + "\n")
    }
}
