import Foundation
import Testing

@testable import SKANDomain

/// Apple's two property list formats read into the same typed values: the fixtures Python's
/// plistlib wrote (Tests/Fixtures/Plist) in both formats, every XML element and escape, and bad
/// input of every kind (each cut of a binary file, every byte of it damaged, a cycle, offsets and
/// references out of range, XML closed wrong) refused with a line that says where.
@Suite struct PropertyListTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Plist")

    static func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: fixtures.appendingPathComponent(name)))
    }

    private func failure(_ bytes: [UInt8]) -> String? {
        do {
            _ = try PropertyList.read(bytes)
            return nil
        } catch {
            return error.reason
        }
    }

    private func failure(_ xml: String) -> String? { failure(Array(xml.utf8)) }

    @Test func bothFormatsOfAFixtureReadAlike() throws {
        for name in ["good", "bad"] {
            let xml = try PropertyList.read(try Self.fixture(name + ".xml.plist"))
            let binary = try PropertyList.read(try Self.fixture(name + ".binary.plist"))
            #expect(xml == binary)
        }
        let good = try PropertyList.read(try Self.fixture("good.binary.plist"))
        #expect(good["SKAdNetworkItems"]?.arrayValue?.count == 3)
        #expect(good["SKAdNetworkItems"]?.arrayValue?[1]["SKAdNetworkIdentifier"] == .string("4fzdc2evr5.skadnetwork"))
        #expect(good["AdAttributionKit"]?["EligibleForAdAttributionKitReengagementPostbackCopies"] == .bool(true))
        #expect(
            good["AdAttributionKitConfigurations"]?["AttributionCooldown"]?["install-cooldown-hours"] == .integer(24))
        // Keys keep the file's order.
        #expect(good.entries?.first?.key == "CFBundleIdentifier")
        #expect(PropertyList.format(of: try Self.fixture("good.binary.plist")) == .binary)
        #expect(PropertyList.format(of: try Self.fixture("good.xml.plist")) == .xml)
        #expect(PropertyList.format(of: Array("{\"log\":{}}".utf8)) == nil)
    }

    @Test func everyXMLElementAndEscape() throws {
        let xml = """
            \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <!-- a comment -->
            <plist version="1.0"><dict>
              <key>s</key><string>a &lt;b&gt; &amp; &quot;c&quot; &apos;d&apos; &#233; &#x1F600; <![CDATA[<raw>&amp;]]></string>
              <key>empty</key><string/>
              <key>n</key><integer> -42 </integer>
              <key>hex</key><integer>0x1F</integer>
              <key>min</key><integer>-9223372036854775808</integer>
              <key>r</key><real>2.5</real>
              <key>t</key><true/>
              <key>f</key><false></false>
              <key>d</key><date>2001-01-02T00:00:01Z</date>
              <key>data</key><data>
                aGVs
                bG8=
              </data>
              <key>a</key><array><integer>1</integer><array/><dict/></array>
            </dict></plist>
            """
        let value = try PropertyList.read(Array(xml.utf8))
        #expect(value["s"] == .string("a <b> & \"c\" 'd' é 😀 <raw>&amp;"))
        #expect(value["empty"] == .string(""))
        #expect(value["n"] == .integer(-42))
        #expect(value["hex"] == .integer(31))
        #expect(value["min"] == .integer(Int64.min))
        #expect(value["r"] == .real(2.5))
        #expect(value["t"] == .bool(true))
        #expect(value["f"] == .bool(false))
        #expect(value["d"] == .date(86_401))
        #expect(value["data"] == .data(Array("hello".utf8)))
        #expect(value["a"] == .array([.integer(1), .array([]), .dictionary([])]))
    }

    @Test func binaryDatesRealsAndUnicodeStrings() throws {
        let value: [String: Any] = [
            "u": "été 😀", "r": 2.5, "d": Date(timeIntervalSinceReferenceDate: 86_401), "big": Int64.max, "neg": -7
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0)
        let read = try PropertyList.read(Array(data))
        #expect(read["u"] == .string("été 😀"))
        #expect(read["r"] == .real(2.5))
        #expect(read["d"] == .date(86_401))
        #expect(read["big"] == .integer(Int64.max))
        #expect(read["neg"] == .integer(-7))
    }

    @Test func brokenFixturesSayWhy() throws {
        let cycle = failure(try Self.fixture("broken-cycle.binary.plist"))
        #expect(
            cycle == "binary property list: object 0 contains itself (a cycle of references); a property list is a tree"
        )
        let offset = failure(try Self.fixture("broken-offset.binary.plist"))
        #expect(offset == "binary property list: object 1's offset is 200, outside the objects (bytes 8 to 13)")
        let xml = failure(try Self.fixture("broken.xml.plist"))
        #expect(xml == "XML property list: line 9: <dict> is closed by </array>")
        let cut = failure(try Self.fixture("broken-truncated.binary.plist")) ?? ""
        #expect(cut.hasPrefix("binary property list: ") && cut.contains("cut short"))
        // A UTF-16 string with a lone surrogate, and XML text that is not UTF-8.
        var lone = Array("bplist00".utf8) + [0x61, 0xD8, 0x00]
        lone += [8, 0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0]
        lone += [0, 0, 0, 0, 0, 0, 0, 11]
        let surrogate = failure(lone)
        #expect(surrogate == "binary property list: object 0 at byte 8: a UTF-16 string with an unpaired surrogate")
        let latin1 = failure(Array("<plist><string>caf".utf8) + [0xE9] + Array("</string></plist>".utf8))
        #expect(latin1 == "XML property list: line 1: <string> holds bytes that are not UTF-8")
    }

    /// Every prefix of a binary file, and the file with each byte in turn set to 0xFF or 0x00, is
    /// read or refused, never a crash or a hang: the offsets, counts and references all come from
    /// the file.
    @Test func everyCutAndDamagedByteIsReadOrRefused() throws {
        let good = try Self.fixture("good.binary.plist")
        for length in 0..<good.count {
            #expect(failure(Array(good[..<length])) != nil)
        }
        for index in good.indices {
            for byte: UInt8 in [0xFF, 0x00, 0x0F] {
                var damaged = good
                damaged[index] = byte
                _ = failure(damaged)
            }
        }
    }

    /// bplist00, the objects, an offset table of 2-byte offsets, then the 32-byte trailer
    /// (1-byte object references).
    private func bplist(_ objects: [[UInt8]], top: UInt64 = 0, count: UInt64? = nil) -> [UInt8] {
        var out = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for o in objects {
            offsets += [UInt8(out.count >> 8), UInt8(out.count & 0xFF)]
            out += o
        }
        let tableAt = UInt64(out.count)
        out += offsets
        out += [0, 0, 0, 0, 0, 0, 2, 1]
        for n in [count ?? UInt64(objects.count), top, tableAt] {
            out += (0..<8).reversed().map { UInt8((n >> ($0 * 8)) & 0xFF) }
        }
        return out
    }

    @Test func binaryStructureErrors() {
        #expect(failure(bplist([[0x09]])) == nil)
        #expect(
            failure(bplist([[0xA1, 0x05]]))
                == "binary property list: object 0 at byte 8 refers to object 5, past the 1 objects the file has")
        #expect(
            failure(bplist([[0x09]], top: 3))
                == "binary property list: the top object is number 3, past the 1 objects the file has")
        #expect(
            failure(bplist([[0x5F, 0x10, 0x40, 0x61]]))
                == "binary property list: object 0 at byte 8: a length of 64, longer than the file")
        #expect(
            failure(bplist([[0x54, 0x61]]))
                == "binary property list: object 0: its ASCII string (4 bytes from byte 9) runs past the objects' end at byte 10"
        )
        #expect(
            failure(bplist([[0xD1, 0x01, 0x01], [0x10, 0x01]]))
                == "binary property list: object 0 at byte 8: a dictionary key (object 1) that is not a string")
        #expect(
            failure(bplist([[0x80, 0x01]]))
                == "binary property list: object 0 at byte 8: a UID, which only NSKeyedArchiver archives hold, not an Info.plist"
        )
        let tooMany = failure(bplist([[0x09]], count: 1_000_000)) ?? ""
        #expect(tooMany.hasPrefix("binary property list: the trailer counts 1000000 objects"))
        let version = failure(Array("bplist15xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx".utf8)) ?? ""
        #expect(version.contains("version 15"))
        let json = failure("{\"log\":1}") ?? ""
        #expect(json.hasPrefix("not a property list"))
        // 255 arrays, each holding the next: read; the last holding the first: a cycle.
        let chain: [[UInt8]] = (0..<255).map { [0xA1, UInt8($0 + 1)] }
        #expect(failure(bplist(chain + [[0x09]])) == nil)
        let cycle = failure(bplist(chain + [[0xA1, 0x00]])) ?? ""
        #expect(cycle.hasPrefix("binary property list: object 0 contains itself"))
    }

    @Test func xmlErrorsNameTheirLine() {
        let head = "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n"
        #expect(
            failure(head + "<dict>\n<string>x</string>\n</dict></plist>")
                == "XML property list: line 4: <string> in a <dict> where a <key> was expected")
        #expect(
            failure(head + "<array><key>k</key></array></plist>")
                == "XML property list: line 3: a <key> outside a <dict>")
        #expect(
            failure(head + "<dict><key>k</key></dict></plist>")
                == "XML property list: line 3: <key>k</key> has no value before </dict>")
        #expect(
            failure(head + "<integer>ten</integer></plist>")
                == "XML property list: line 3: <integer>ten</integer> is not a whole number")
        #expect(
            failure(head + "<blob/></plist>") == "XML property list: line 3: <blob>, which is no property list element")
        #expect(
            failure(head + "<dict><key>k</key><string>x")
                == "XML property list: line 3: the file ends inside <string>: the file is cut short")
        #expect(
            failure(head + "<true/></plist><true/>")
                == "XML property list: line 3: more after </plist>: a property list holds one value")
        #expect(
            failure("<?xml version=\"1.0\"?>\n<html></html>")
                == "XML property list: line 2: the root element is <html>, where a property list has <plist>")
        #expect(
            failure(head + "<string>a & b</string></plist>")
                == "XML property list: line 3: an & that starts no entity (write &amp;)")
        #expect(
            failure(head + "<date>yesterday</date></plist>")
                == "XML property list: line 3: <date>yesterday</date> is not a date as YYYY-MM-DDTHH:MM:SSZ")
        let nested = String(repeating: "<array>", count: 300) + String(repeating: "</array>", count: 300)
        #expect(
            failure(head + nested + "</plist>") == "XML property list: line 3: values nested deeper than 256 levels")
    }
}
