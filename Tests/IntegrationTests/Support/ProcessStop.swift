import Dispatch
import Foundation
import SystemPOSIX

extension Process {
    /// Sends SIGTERM and waits at most `seconds` for the process to end. Past that it is killed
    /// (SIGKILL) and false is returned: a server that lost the signal fails its test instead of
    /// hanging the whole suite (and CI) in `waitUntilExit`.
    @discardableResult
    func terminateAndWait(atMost seconds: Double = 15) -> Bool {
        terminate()
        return exits(within: seconds)
    }

    /// Waits at most `seconds` for the process to end on its own (a command that refuses to start,
    /// say); past that it is killed and false is returned.
    /// It waits on the process's end (`waitUntilExit` on a thread of its own), not on a clock.
    func exits(within seconds: Double) -> Bool {
        let ended = DispatchSemaphore(value: 0)
        let waited = Waited(process: self)
        Thread.detachNewThread {
            waited.process.waitUntilExit()
            ended.signal()
        }
        let onItsOwn = ended.wait(timeout: .now() + .milliseconds(Int(seconds * 1_000))) == .success
        if !onItsOwn {
            System.killProcess(processIdentifier)
            ended.wait()
        }
        return onItsOwn
    }
}

/// A process to wait for on another thread: `Process` is not `Sendable` in every Foundation this
/// package builds with (Swift 6.0 on), and `waitUntilExit` may be called from any thread.
private struct Waited: @unchecked Sendable {
    let process: Process
}
