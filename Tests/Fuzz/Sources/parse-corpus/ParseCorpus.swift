import FuzzHarness
import HTTPCore
import SKANDomain

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `parse-corpus FILE...` parses each file as the bytes a client sent on one connection and prints one
/// JSON line per file for Tests/Differential/h11_differential.py:
///   {"file": "...", "status": 200|400|..., "requests": [{"method","target","body"}...], "leftover": N}
/// `status` is the error's status when the parser rejected the bytes, 200 when it accepted at least one
/// request without an error, 0 when the bytes ended before a whole request.
/// `parse-corpus --replay http|skan FILE...` runs a fuzzer's checks on each file without libFuzzer,
/// to reproduce a crash with a readable message.
@main
struct ParseCorpus {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--replay", arguments.count >= 2 {
            let target = arguments[1]
            for path in arguments.dropFirst(2) {
                let bytes = read(path)
                switch target {
                case "http": HTTPParserHarness.check(bytes)
                case "skan": SKANParametersHarness.check(bytes)
                default: fatalError("unknown fuzz target \(target) (http or skan)")
                }
                print("ok \(path)")
            }
            return
        }
        arguments.removeAll { $0 == "--" }
        for path in arguments {
            let result = HTTPParserHarness.parse(read(path))
            let status = result.error?.status.code ?? (result.requests.isEmpty ? 0 : 200)
            let requests = result.requests.map {
                "{\"method\":\(json($0.method)),\"target\":\(json($0.target)),\"body\":\(json(String(decoding: $0.body, as: UTF8.self)))}"
            }
            let reason = result.error.map { json($0.reason) } ?? "null"
            print(
                "{\"file\":\(json(path)),\"status\":\(status),\"reason\":\(reason),\"requests\":[\(requests.joined(separator: ","))],\"leftover\":\(result.leftover)}"
            )
        }
    }

    static func read(_ path: String) -> [UInt8] {
        guard let file = fopen(path, "rb") else { fatalError("cannot open \(path)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }

    /// A JSON string literal, written by the project's own JSON writer.
    static func json(_ text: String) -> String {
        String(decoding: JSONWriter.serialize(.string(text)), as: UTF8.self)
    }
}
