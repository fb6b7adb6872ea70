import Foundation
import SKANDomain
import Testing

@testable import SKANMock

/// The console the server serves is the committed `Console/assets` folder, file for file and byte for
/// byte (run Scripts/embed.sh after editing it), and each file is served with its type.
@Suite struct ConsoleAssetsTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/SKANMock/Console/assets")

    @Test func embeddedCopiesEqualTheCommittedFiles() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).sorted()
        #expect(ConsoleAssets.files.keys.sorted() == names, "run Scripts/embed.sh")
        for name in names {
            let committed = try Data(contentsOf: Self.folder.appendingPathComponent(name))
            #expect(Array((ConsoleAssets.files[name] ?? "").utf8) == Array(committed), "\(name): run Scripts/embed.sh")
        }
    }

    @Test func everyModuleTheEntryPointReachesIsEmbedded() {
        // `import ... from "./x.js"`: the browser asks /__admin/ui/x.js, which must be a file here.
        for (name, text) in ConsoleAssets.files where name.hasSuffix(".js") {
            for line in text.split(separator: "\n") where line.hasPrefix("import ") {
                guard let from = line.range(of: "from \"./") else { continue }
                let module = String(line[from.upperBound...].prefix { $0 != "\"" })
                #expect(ConsoleAssets.files[module] != nil, "\(name) imports \(module)")
            }
        }
    }

    /// Issue 41.1: the console's coarse names and upstream codes are the domain's, as
    /// Scripts/embed.sh wrote them into vocabulary.js; a code added in Swift fails here until it runs.
    @Test func theVocabularyIsTheDomains() {
        func list(_ words: [String]) -> String { "[" + words.map { "\"\($0)\"" }.joined(separator: ", ") + "]" }
        let text = ConsoleAssets.files["vocabulary.js"] ?? ""
        #expect(text.contains("\nexport const COARSE = \(list(CoarseValue.names));\n"), "run Scripts/embed.sh")
        #expect(
            text.contains(
                "\nexport const UPSTREAM_CODES = \(list(FindingCode.upstreamComparison.map(\.rawValue)));\n"),
            "run Scripts/embed.sh")
    }

    @Test func filesAreServedWithTheirTypes() {
        #expect(ConsoleRoutes.contentType("console.js") == "text/javascript; charset=utf-8")
        #expect(ConsoleRoutes.contentType("console.css") == "text/css; charset=utf-8")
        #expect(ConsoleRoutes.contentType("favicon.svg") == "image/svg+xml")
        #expect(ConsoleRoutes.contentType("index.html") == "text/html; charset=utf-8")
    }
}
