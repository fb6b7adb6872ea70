import Foundation
import SystemPOSIX

extension Process {
    /// Sends SIGTERM and waits at most `seconds` for the process to end. Past that it is killed
    /// (SIGKILL) and false is returned: a server that lost the signal fails its test instead of
    /// hanging the whole suite (and CI) in `waitUntilExit`.
    @discardableResult
    func terminateAndWait(atMost seconds: Double = 15) -> Bool {
        terminate()
        let deadline = Date().addingTimeInterval(seconds)
        while isRunning && Date() < deadline { System.sleep(microseconds: 2_000) }
        let stopped = !isRunning
        if !stopped { System.killProcess(processIdentifier) }
        waitUntilExit()
        return stopped
    }
}
