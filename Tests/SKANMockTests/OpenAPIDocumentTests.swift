import Foundation
import Testing

@testable import SKANMock

@Suite struct OpenAPIDocumentTests {
    /// The document the server serves is the committed one, byte for byte (run Scripts/embed.sh after editing it).
    @Test func embeddedCopyEqualsTheCommittedFile() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("openapi/skan-mock-admin.yaml")
        let committed = try [UInt8](Data(contentsOf: file))
        #expect(Array(OpenAPIDocument.yaml.utf8) == committed, "run Scripts/embed.sh")
    }
}
