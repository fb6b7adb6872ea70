import Foundation

/// The start-up line of a `skan-mock` process (`skan-mock listening on http://127.0.0.1:PORT`),
/// read from its standard output without waiting for more.
enum ListeningLine {
    /// The first line the process writes to `pipe`.
    static func first(of pipe: Pipe) -> String {
        var data = Data()
        while !data.contains(UInt8(ascii: "\n")) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            data.append(chunk)
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The port of the start-up line on `pipe`, nil when the process said something else.
    static func port(of pipe: Pipe) -> Int? {
        Int(first(of: pipe).split(separator: ":").last ?? "")
    }
}
