import HTTPCore
import Testing

@testable import SKANMock

/// The service's error shape, which the HTTP layer's own answers take through `HTTPErrorRenderer.singular`.
@Suite("Singular error bodies")
struct SingularErrorsTests {
    private func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    @Test func quotesReasonsAsJSON() {
        let response = HTTPResponse.jsonError("bad \"quote\" \\ \n\u{01}", status: .badRequest)
        #expect(response.headers["Content-Type"] == "application/json")
        #expect(text(response) == "{\"status\":\"error\",\"reason\":\"bad \\\"quote\\\" \\\\ \\n\\u0001\"}")
    }

    @Test func rendersTheHTTPLayersErrorsInTheServiceShape() {
        let response = HTTPErrorRenderer.singular.response(.requestTimeout, reason: "request not received in time")
        #expect(response.status == .requestTimeout)
        #expect(text(response) == "{\"status\":\"error\",\"reason\":\"request not received in time\"}")
    }
}
