import Foundation
import Testing

/// `skan-mock simulate --url` given what a user has at hand: the app's `SINGULAR_API_URL` (the
/// whole endpoint URL) used to send every step to a doubled path, get seven 404s and exit 0.
@Suite("simulate --url, through the real executable")
struct SimulateURLTests {
    @Test func theWholeSingularAPIURLIsTakenForItsBase() throws {
        let mock = try TestSKANMock()
        let run = try SKANMockExecutable.run([
            "simulate", "--url", "http://127.0.0.1:\(mock.server.port)/api/v2/conversion_value", "--device", "URL-1"
        ])
        #expect(run.status == 0, "\(run.error)")
        #expect(try mock.journal("device=URL-1").allSatisfy { $0["response"]?["status"] == 200 })
        #expect(try !mock.journal("device=URL-1").isEmpty)
    }

    @Test func aRunInWhichNoStepGotAnAnswerFails() throws {
        let mock = try TestSKANMock()
        let run = try SKANMockExecutable.run([
            "simulate", "--url", "http://127.0.0.1:\(mock.server.port)/not-skan-mock", "--device", "URL-2"
        ])
        #expect(run.status == 1)
        #expect(run.error.contains("no step got an answer (every request was answered 404)"), "\(run.error)")
        #expect(run.error.contains("SINGULAR_API_URL without /api/..."))
    }
}
