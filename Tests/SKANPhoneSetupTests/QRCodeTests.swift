#if SKAN_MOCK_TLS
    import Foundation
    import SKANPhoneSetup
    import Testing

    /// QR codes decode, with zbarimg, to exactly the text they were made from; the SVG draws the same matrix.
    @Suite("QR codes")
    struct QRCodeTests {
        @Test(arguments: [
            "http://192.168.1.20:8080/__admin/ca.mobileconfig", "https://[fd00::2]:8443", "https://10.0.0.1:8443"
        ])
        func bitmapDecodesToItsText(_ text: String) throws {
            let code = try QRCode(encoding: text)
            #expect(try ZBarImage.decode(pgm: code.pgm()) == [text])
        }

        @Test func svgDrawsTheSameModulesAndDecodes() throws {
            let text = "http://192.168.1.20:8080/__admin/ca.mobileconfig"
            let code = try QRCode(encoding: text)
            let svg = code.svg()
            // Rebuild the matrix from the SVG's rectangles, then let zbarimg read that.
            let redrawn = try SVGBitmap(svg: svg, quietZone: 4)
            #expect(redrawn.size == code.size)
            for y in 0..<code.size {
                for x in 0..<code.size where redrawn.isDark(x: x, y: y) != code.isDark(x: x, y: y) {
                    Issue.record("module \(x),\(y) differs")
                }
            }
            #expect(try ZBarImage.decode(pgm: redrawn.pgm()) == [text])
            #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        }

        @Test func textWithMarkupIsEscapedInTheSVG() throws {
            let svg = try QRCode(encoding: "\"><script>alert(1)</script>").svg()
            #expect(!svg.contains("<script"))
            #expect(svg.contains("&quot;&gt;&lt;script&gt;"))
        }
    }

    /// The dark modules an SVG from ``QRCode/svg(pixelsPerModule:quietZone:)`` draws.
    struct SVGBitmap {
        let size: Int
        private var dark: Set<[Int]> = []

        init(svg: String, quietZone: Int) throws {
            let viewBox = try #require(svg.firstMatch(of: /viewBox="0 0 (\d+) (\d+)"/))
            size = try #require(Int(viewBox.1)) - 2 * quietZone
            for rect in svg.matches(of: /<rect x="(\d+)" y="(\d+)" width="(\d+)" height="1"\/>/) {
                let x = Int(rect.1)! - quietZone
                let y = Int(rect.2)! - quietZone
                let width = Int(rect.3)!
                for column in x..<x + width { dark.insert([column, y]) }
            }
        }

        func isDark(x: Int, y: Int) -> Bool { dark.contains([x, y]) }

        func pgm(pixelsPerModule: Int = 4, quietZone: Int = 4) -> [UInt8] {
            let side = (size + 2 * quietZone) * pixelsPerModule
            var image = Array("P5\n\(side) \(side)\n255\n".utf8)
            for row in 0..<side {
                for column in 0..<side {
                    image.append(
                        isDark(x: column / pixelsPerModule - quietZone, y: row / pixelsPerModule - quietZone) ? 0 : 255)
                }
            }
            return image
        }
    }
#endif
