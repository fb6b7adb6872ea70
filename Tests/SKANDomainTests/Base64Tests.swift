import SKANDomain
import XCTest

final class Base64Tests: XCTestCase {
    func testRFC4648Vectors() {
        let vectors = [
            ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy")
        ]
        for (plain, encoded) in vectors {
            XCTAssertEqual(Base64.encode(Array(plain.utf8)), encoded)
            XCTAssertEqual(Base64.decode(encoded), Array(plain.utf8))
        }
    }

    func testEveryByteRoundTrips() {
        let bytes = (0...255).map { UInt8($0) } + [0xFF, 0xFE, 0x00]
        for length in 0...bytes.count {
            XCTAssertEqual(Base64.decode(Base64.encode(bytes.prefix(length))), Array(bytes.prefix(length)))
        }
    }

    func testMalformedTextIsRefused() {
        for text in ["Zg=", "Z===", "Zm9v!A==", "Zg==Zm9v", "=Zg=", "Zm=v"] {
            XCTAssertNil(Base64.decode(text), text)
        }
    }

    func testUTF8Check() {
        XCTAssertTrue(Base64.isUTF8(Array("{\"status\":\"ok\"} é ✓".utf8)))
        XCTAssertFalse(Base64.isUTF8([0x7B, 0xFF, 0x7D]))
        XCTAssertFalse(Base64.isUTF8([0xC3]))
    }
}
