import Testing

@testable import SKANSimulator

/// `--url`: a SINGULAR_API_URL-style base, plain HTTP only.
@Suite("Simulator URL")
struct SimulatorURLTests {
    @Test(arguments: [
        ("http://127.0.0.1:8080", "127.0.0.1", 8080, ""),
        ("http://localhost:9000/", "localhost", 9000, ""),
        ("HTTP://mock.local/skan/", "mock.local", 80, "/skan"),
        ("http://[::1]:8081/base?x=1", "::1", 8081, "/base"),
        // A whole SINGULAR_API_URL: the endpoint's path is taken off.
        ("http://127.0.0.1:8080/api/v2/conversion_value", "127.0.0.1", 8080, ""),
        ("http://127.0.0.1:8080/t/qa-1/api/v1/conversion_value/", "127.0.0.1", 8080, "/t/qa-1"),
        ("http://127.0.0.1:8080/backend/api/v1/evt", "127.0.0.1", 8080, "/backend")
    ])
    func parses(text: String, host: String, port: Int, base: String) throws {
        let url = try SimulatorURL(parsing: text)
        #expect(url.host == host && url.port == port && url.basePath == base)
    }

    @Test(arguments: [
        "https://127.0.0.1:8443", "127.0.0.1:8080", "http://:8080", "http://host:0", "http://host:http", "http://[::1"
    ])
    func rejects(text: String) {
        #expect(throws: SimulatorURL.Invalid.self) { try SimulatorURL(parsing: text) }
    }

    @Test func anHTTPSURLIsToldWhichAddressToUseInstead() {
        #expect {
            try SimulatorURL(parsing: "https://127.0.0.1:8443")
        } throws: { error in
            let text = (error as? SimulatorURL.Invalid)?.description ?? ""
            return text.contains("plain HTTP only") && text.contains("http:// address")
                && !text.contains("skan-mock speaks plain HTTP")
        }
    }

    @Test func describesItself() throws {
        #expect(try SimulatorURL(parsing: "http://[::1]:8081/base").description == "http://[::1]:8081/base")
        #expect(try SimulatorURL(parsing: "http://127.0.0.1:8080").description == "http://127.0.0.1:8080")
    }
}
