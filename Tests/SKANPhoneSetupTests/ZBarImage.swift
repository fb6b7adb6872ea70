import Foundation

/// `zbarimg`, an independent QR decoder: what a phone camera would read from our codes.
enum ZBarImage {
    /// The texts decoded from the image `bytes` (written to a temporary `.pgm`).
    static func decode(pgm bytes: [UInt8]) throws -> [String] {
        let path = NSTemporaryDirectory() + "skan-qr-\(UUID().uuidString).pgm"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["zbarimg", "--quiet", "--raw", "--nodbus", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
