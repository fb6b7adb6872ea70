import Foundation
import Testing

@testable import SKANMock

@Suite struct OpenAPIDocumentTests {
    /// `GET /__admin/x` for each operation of the document's `paths`.
    static func operations(in yaml: String) -> Set<String> {
        var operations: Set<String> = []
        var path: String?
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("  /") && line.hasSuffix(":") && !line.hasPrefix("   ") {
                path = String(line.dropFirst(2).dropLast())
            } else if !line.hasPrefix("  ") && !line.isEmpty {
                path = nil
            } else if let path, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                let method = line.trimmingCharacters(in: .whitespaces).dropLast().uppercased()
                if ["GET", "PUT", "POST", "DELETE", "PATCH"].contains(method) { operations.insert("\(method) \(path)") }
            }
        }
        return operations
    }

    /// Issue 41.5: every admin route the server registers behind the token is in the document, and
    /// every admin operation the document names is registered. Left out on purpose, as the
    /// document's description says: the open routes (the console's pages, the phone set-up) and the
    /// live feed `GET /__admin/events`, which OpenAPI cannot describe usefully.
    @Test func everyRegisteredAdminRouteIsInTheDocument() throws {
        var options = ServerOptions()
        options.port = 0
        options.watchModel = false
        let server = try SKANMockServer(options: options)
        let responder = try #require(server.responder as? AppResponder)
        let documented = Self.operations(in: OpenAPIDocument.yaml)
        #expect(documented.count >= 20, "\(documented.sorted())")
        let undocumented: Set<String> = ["GET /__admin/events"]
        var registered: Set<String> = []
        for route in responder.admin.registered where route.access == .token {
            let operation = "\(route.method.rawValue) \(route.path)"
            registered.insert(operation)
            guard !undocumented.contains(operation) else { continue }
            #expect(
                documented.contains(operation), "\(operation) is registered but not in openapi/skan-mock-admin.yaml")
        }
        for operation in documented.sorted() where operation.contains(" /__admin/") {
            #expect(
                registered.contains(operation),
                "openapi/skan-mock-admin.yaml names \(operation), which is not registered")
        }
    }

    /// The document the server serves is the committed one, byte for byte (run Scripts/embed.sh after editing it).
    @Test func embeddedCopyEqualsTheCommittedFile() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("openapi/skan-mock-admin.yaml")
        let committed = try [UInt8](Data(contentsOf: file))
        #expect(Array(OpenAPIDocument.yaml.utf8) == committed, "run Scripts/embed.sh")
    }
}
