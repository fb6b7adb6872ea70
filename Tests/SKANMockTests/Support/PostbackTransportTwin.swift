import Dispatch
import HTTPCore
import SystemPOSIX

@testable import SKANMock

/// The sender's transport in memory: records each post and answers 200, and can hold the first
/// post until `release()`, so that a test stops the server while a send is in flight.
final class PostbackTransportTwin: PostbackTransport {
    private let posts = Mutex<[(target: PostbackTarget, body: [UInt8])]>([])
    private let holdsFirst: Bool
    private let arrived = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)

    init(holdingTheFirstPost: Bool = false) {
        holdsFirst = holdingTheFirstPost
    }

    func post(to target: PostbackTarget, body: [UInt8], timeout: Double, admit: @escaping @Sendable (String) -> String?)
        throws(HTTPProbe.Failure) -> (status: Int, body: [UInt8])
    {
        let first = posts.withLock { posts in
            posts.append((target, body))
            return posts.count == 1
        }
        if first && holdsFirst {
            arrived.signal()
            gate.wait()
        }
        return (200, Array("{\"ok\":true}".utf8))
    }

    /// Blocks until the held first post has arrived (at most `seconds`); false when it never did.
    func waitForTheFirstPost(seconds: Int = 10) -> Bool {
        arrived.wait(timeout: .now() + .seconds(seconds)) == .success
    }

    /// Lets the held first post answer.
    func release() { gate.signal() }

    var count: Int { posts.withLock { $0.count } }
}
