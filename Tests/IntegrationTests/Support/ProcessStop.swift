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
    func exits(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while isRunning && Date() < deadline { System.sleep(microseconds: 2_000) }
        let ended = !isRunning
        if !ended { System.killProcess(processIdentifier) }
        waitUntilExit()
        return ended
    }
}
