#if SKAN_MOCK_TLS
    import CQRencode
    import SystemPOSIX

    /// A QR code's module matrix, from libqrencode, drawn by us: as SVG rectangles for the phone page,
    /// and as a PGM bitmap, which tests hand to `zbarimg` to prove the code reads back as its text.
    /// Any thread may make one: Debian's libqrencode guards its shared tables with a mutex.
    public struct QRCode: Sendable {
        public struct EncodingError: Error, Sendable, CustomStringConvertible {
            public let description: String
        }

        /// What the code encodes.
        public let text: String
        /// Modules per side, without the quiet zone.
        public let size: Int
        /// Row-major, true for a dark module.
        private let modules: [Bool]

        /// Error correction M (15%): survives a phone camera's glare, keeps the code small.
        public init(encoding text: String) throws(EncodingError) {
            guard !text.utf8.contains(0) else { throw EncodingError(description: "a QR code text cannot contain NUL") }
            guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else {
                throw EncodingError(description: "libqrencode: \(System.lastErrorText())")
            }
            defer { QRcode_free(code) }
            let width = Int(code.pointee.width)
            self.text = text
            size = width
            // Bit 0 of each byte is the module's colour; the other bits are libqrencode's bookkeeping.
            modules = (0..<width * width).map { code.pointee.data[$0] & 1 == 1 }
        }

        public func isDark(x: Int, y: Int) -> Bool {
            x >= 0 && y >= 0 && x < size && y < size && modules[y * size + x]
        }

        /// An inline SVG: one rectangle per horizontal run of dark modules on a white square, with the
        /// standard 4-module quiet zone; its accessible name is the text (escaped).
        public func svg(pixelsPerModule: Int = 6, quietZone: Int = 4) -> String {
            let side = size + 2 * quietZone
            var rects = ""
            for y in 0..<size {
                var x = 0
                while x < size {
                    guard isDark(x: x, y: y) else {
                        x += 1
                        continue
                    }
                    var end = x
                    while isDark(x: end, y: y) { end += 1 }
                    rects += "<rect x=\"\(x + quietZone)\" y=\"\(y + quietZone)\" width=\"\(end - x)\" height=\"1\"/>"
                    x = end
                }
            }
            let pixels = side * pixelsPerModule
            return
                "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(side) \(side)\" width=\"\(pixels)\" height=\"\(pixels)\""
                + " shape-rendering=\"crispEdges\" role=\"img\" aria-label=\"QR code: \(HTMLEscaping.escape(text))\">"
                + "<rect width=\"\(side)\" height=\"\(side)\" fill=\"#fff\"/><g fill=\"#000\">\(rects)</g></svg>"
        }

        /// A binary PGM (P5) image, black on white with the quiet zone: a format every image reader
        /// (zbarimg through ImageMagick included) takes, with no compression to write.
        public func pgm(pixelsPerModule: Int = 4, quietZone: Int = 4) -> [UInt8] {
            let side = (size + 2 * quietZone) * pixelsPerModule
            var image = Array("P5\n\(side) \(side)\n255\n".utf8)
            image.reserveCapacity(image.count + side * side)
            for row in 0..<side {
                let y = row / pixelsPerModule - quietZone
                for column in 0..<side {
                    image.append(isDark(x: column / pixelsPerModule - quietZone, y: y) ? 0 : 255)
                }
            }
            return image
        }
    }
#endif
