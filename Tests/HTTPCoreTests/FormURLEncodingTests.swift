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
        FormURLEncoding.forEachField(Array("%41%42=%43".utf8)) { name, value in lengths.append(name.count + value.count)
        }
        #expect(lengths == [3])
    }

    /// The field loop skips plain bytes eight at a time: it must split exactly as a byte loop does,
    /// wherever the separators fall.
    @Test func splitsLikeAByteLoopWhereverSeparatorsFall() {
        let alphabet = Array("ab&=%+2F0".utf8)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let length = Int.random(in: 0..<48, using: &generator)
            let text = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
            var fields: [[UInt8]] = []
            FormURLEncoding.forEachField(text) { name, value in
                // Compared as strings: the reference below decodes through String (repairing UTF-8).
                fields.append(
                    Array(String(decoding: name, as: UTF8.self).utf8) + [0]
                        + Array(String(decoding: value, as: UTF8.self).utf8))
            }
            #expect(fields == Self.naiveFields(text), "\(String(decoding: text, as: UTF8.self))")
        }
    }

    static func naiveFields(_ text: [UInt8]) -> [[UInt8]] {
        text.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true).map { piece in
            let equals = piece.firstIndex(of: UInt8(ascii: "="))
            let name = equals.map { piece[piece.startIndex..<$0] } ?? piece[...]
            let value = equals.map { piece[($0 + 1)...] } ?? []
            return Array(FormURLEncoding.percentDecode(String(decoding: name, as: UTF8.self)).utf8) + [0]
                + Array(FormURLEncoding.percentDecode(String(decoding: value, as: UTF8.self)).utf8)
        }
    }
}
