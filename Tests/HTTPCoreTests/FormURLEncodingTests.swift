import Testing
@testable import HTTPCore

@Suite("FormURLEncoding")
struct FormURLEncodingTests {
    @Test func splitsPairsInOrderKeepingRepeats() {
        let pairs = FormURLEncoding.pairs("a=1&b=&c&a=2&&d=x=y")
        #expect(pairs.map(\.name) == ["a", "b", "c", "a", "d"])
        #expect(pairs.map(\.value) == ["1", "", "", "2", "x=y"])
    }

    @Test func decodesPercentEscapesAndPlus() {
        #expect(FormURLEncoding.percentDecode("%7B%22USD%22%3A1.5%7D") == "{\"USD\":1.5}")
        #expect(FormURLEncoding.percentDecode("a+b%20c") == "a b c")
        #expect(FormURLEncoding.percentDecode("a+b", plusAsSpace: false) == "a+b")
        #expect(FormURLEncoding.percentDecode("%E2%82%A9") == "₩")
    }

    @Test func keepsMalformedEscapesAsTheyCame() {
        #expect(FormURLEncoding.percentDecode("100%") == "100%")
        #expect(FormURLEncoding.percentDecode("%zz%4") == "%zz%4")
    }

    @Test func decodesAFormBody() {
        let pairs = FormURLEncoding.pairs(Array("n=__SESSION__&idfv=A%2DB".utf8))
        #expect(pairs.map(\.value) == ["__SESSION__", "A-B"])
    }

    @Test func fieldsComeAsDecodedBytesWithoutStrings() {
        var fields: [(String, String)] = []
        let query: Substring = "a=1&p%30_coarse=%7B%22x%22%7D&&b+c=d+e&flag&%FF=%E2%82%A9"[...]
        FormURLEncoding.forEachField(query) { name, value in
            fields.append((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
        }
        #expect(fields.map(\.0) == ["a", "p0_coarse", "b c", "flag", "\u{FFFD}"])
        #expect(fields.map(\.1) == ["1", "{\"x\"}", "d e", "", "₩"])
    }

    @Test func aFieldThatIsAllEscapesFitsTheScratchBuffer() {
        var lengths: [Int] = []
        FormURLEncoding.forEachField(Array("%41%42=%43".utf8)) { name, value in lengths.append(name.count + value.count) }
        #expect(lengths == [3])
    }
}
