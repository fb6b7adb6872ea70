import Testing

@testable import SKANDomain

@Suite struct RequestParametersTests {
    @Test func lastValueWinsAndEmptyCountsAsAbsent() {
        let p = RequestParameters([("n", "a"), ("x", "1"), ("n", "b"), ("e", "")].map { (name: $0.0, value: $0.1) })
        #expect(p["n"] == "b")
        #expect(p[SKANParameter.event] == "b")
        #expect(p["x"] == "1")
        #expect(p["e"] == nil)
        #expect(p.raw("e") == "")
        #expect(p["missing"] == nil)
        #expect(p.distinctNames == 3)
        #expect(p.count == 4)
        #expect(p.first(of: "e", "x", "n")?.name == "x")
    }

    @Test func knownNamesAreFoundByCaseAndByName() {
        let p = RequestParameters([("p0_coarse", "2"), ("skan_total_revenue_by_currency", "{\"USD\":1}"), ("idfv", "")])
        #expect(p[SKANParameter.p0Coarse] == "2")
        #expect(p.contains(.p0Coarse))
        #expect(!p.contains(.idfv))
        #expect(p.raw("idfv") == "")
        #expect(p["skan_total_revenue_by_currency"] == "{\"USD\":1}")
        #expect(p.withValue(.p0Coarse) { $0.count } == 1)
        #expect(p.withValue(.p1Coarse) { $0.count } == nil)
    }

    @Test func everyNameIsItsOwnSlot() {
        let names = SKANParameter.allCases.map(\.name)
        #expect(Set(names).count == names.count)
        let p = RequestParameters(SKANParameter.allCases.map { (name: $0.name, value: "v\($0.rawValue)") })
        for parameter in SKANParameter.allCases { #expect(p[parameter] == "v\(parameter.rawValue)") }
        #expect(p.distinctNames == names.count)
    }

    @Test func namesThatOnlyLookKnownAreNot() {
        let p = RequestParameters([("p0_coarse ", "1"), ("P0_coarse", "2"), ("p0_coars", "3")])
        #expect(p[SKANParameter.p0Coarse] == nil)
        #expect(p["P0_coarse"] == "2")
        #expect(p.distinctNames == 3)
    }

    @Test func pairsComeBackInOrderWithRepeats() {
        let pairs = [("a", "1"), ("zz", "2"), ("a", "3"), ("zz", "")]
        let p = RequestParameters(pairs.map { (name: $0.0, value: $0.1) })
        #expect(p.pairs.map(\.name) == ["a", "zz", "a", "zz"])
        #expect(p.pairs.map(\.value) == ["1", "2", "3", ""])
        #expect(p.distinctNames == 2)
    }

    @Test func invalidUTF8IsStoredRepairedLikeAString() {
        var p = RequestParameters()
        let name: [UInt8] = [0x6E, 0xFF]
        let value: [UInt8] = [0xE2, 0x82]
        name.withUnsafeBufferPointer { n in value.withUnsafeBufferPointer { v in p.append(name: n, value: v) } }
        #expect(p.pairs.first?.name == "n\u{FFFD}")
        #expect(p.pairs.first?.value == "\u{FFFD}")
        var w = JSONWriter()
        JournalEntry.writeParams(p, to: &w)
        #expect(String(decoding: w.bytes, as: UTF8.self) == "{\"n\u{FFFD}\":\"\u{FFFD}\"}")
    }

    /// The public way in takes any bytes, no pointer: an array, a slice, a string's UTF-8 view, a
    /// collection with no contiguous storage; each gives what the pointer form gives.
    @Test func fieldsComeInFromAnyBytes() {
        var p = RequestParameters()
        let name: [UInt8] = Array("p0_coarse".utf8)
        p.append(name: name, value: [UInt8(ascii: "1")])
        p.append(name: Array("xidfv".utf8).dropFirst(), value: "ABC".utf8)
        p.append(name: "tag".utf8.lazy.map { $0 }, value: [0x6E, 0xFF].lazy.map { $0 })
        #expect(p[SKANParameter.p0Coarse] == "1")
        #expect(p[SKANParameter.idfv] == "ABC")
        #expect(p["tag"] == "n\u{FFFD}")
        #expect(p.distinctNames == 3)
    }

    @Test func manyUnknownNamesAreCountedOnce() {
        let pairs = (0..<200).map { (name: "k\($0 % 150)", value: "v\($0)") }
        let p = RequestParameters(pairs)
        #expect(p.distinctNames == 150)
        #expect(p["k0"] == "v150")
        #expect(p["k149"] == "v149")
        #expect(p["k150"] == nil)
    }

    @Test func repeatedNamesAreGroupedInTheJournal() {
        let p = RequestParameters([("n", "a"), ("x", "\"q\""), ("n", "b")])
        var w = JSONWriter()
        JournalEntry.writeParams(p, to: &w)
        #expect(String(decoding: w.bytes, as: UTF8.self) == #"{"n":["a","b"],"x":"\"q\""}"#)
    }
}
