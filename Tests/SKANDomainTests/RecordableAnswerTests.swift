import SKANDomain
import XCTest

final class RecordableAnswerTests: XCTestCase {
    func testFinalStatusesPass() {
        XCTAssertNil(RecordableAnswer.problem(status: 200, bodyCount: 40))
        XCTAssertNil(RecordableAnswer.problem(status: 599, bodyCount: 0))
        XCTAssertNil(RecordableAnswer.problem(status: 204, bodyCount: 0))
    }

    func testInterimAndOutOfRangeStatusesAreRefused() {
        XCTAssertEqual(
            RecordableAnswer.problem(status: 100, bodyCount: 0),
            "status 100 is an interim (1xx) answer; a recorded answer must be a final status from 200 to 599")
        XCTAssertEqual(
            RecordableAnswer.problem(status: 999, bodyCount: 2), "status 999 is not an HTTP status from 200 to 599")
        XCTAssertNotNil(RecordableAnswer.problem(status: 0, bodyCount: 0))
    }

    func testBodiesOn204And304AreRefused() {
        XCTAssertEqual(
            RecordableAnswer.problem(status: 304, bodyCount: 5),
            "status 304 carries no body in HTTP/1.1, but this answer has 5 bytes")
        XCTAssertNotNil(RecordableAnswer.problem(status: 204, bodyCount: 1))
    }
}
