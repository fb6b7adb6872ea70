import Foundation
import Testing

/// The `openssl` command-line tool, the independent judge of what SKANTLS writes.
enum OpenSSLCommand {
    /// Runs `openssl ARGS` and returns its exit status and standard output plus error.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The tests read OpenSSL 3's output formats; a Mac's own `openssl` is LibreSSL, whose output
    /// differs, so the tests that judge with it are skipped there, saying why.
    static let isOpenSSL3: Bool = ((try? run(["version"]))?.output ?? "").hasPrefix("OpenSSL 3")

    static let requirement: Comment =
        "needs OpenSSL 3's openssl command first on PATH, not LibreSSL (a Mac: brew install openssl@3; Tests/test.sh puts it first)"
}

/// A fresh folder under the temporary directory, for one test.
func temporaryFolder(_ name: String) -> String {
    NSTemporaryDirectory() + "skan-tls-\(name)-\(UUID().uuidString)"
}

/// The permission bits of `path` (0o600, 0o700).
func mode(of path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}
