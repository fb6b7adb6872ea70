import Foundation

/// Runs a JavaScript module with the machine's `node`, for the examples that the docs give Node
/// users; the tests that need it are skipped, saying so, where node is not installed.
enum NodeScript {
    static let path: String? = {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return folders.map { $0 + "/node" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static var available: Bool { path != nil }

    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    /// The lines the script printed; throws with its standard error when it exits non-zero.
    static func run(_ source: String, arguments: [String]) throws -> [String] {
        guard let path else { throw Failed(description: "node is not installed") }
        let file = NSTemporaryDirectory() + "skan-node-\(UUID().uuidString).mjs"
        try source.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [file] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failed(description: "node exited \(process.terminationStatus): \(err)")
        }
        return out.split(separator: "\n").map(String.init)
    }
}
