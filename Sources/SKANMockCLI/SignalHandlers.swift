import Dispatch
import SKANMock
import SystemPOSIX

/// SIGTERM/SIGINT stop the server gracefully and exit 0; SIGHUP reloads the model file.
/// Signals are taken as dispatch sources (not async-signal handlers), so the work they trigger
/// runs as ordinary code.
///
/// No signal is lost on the way there: `main` blocks them (`blockAtStart`) before any thread
/// exists, so one sent at any moment after that waits, pending, until the sources take it. They
/// used to be set to be ignored first, and a SIGTERM sent between that and the moment the last
/// thread blocked them (in `dispatchMain`) was thrown away: one start in 15 kept serving after a
/// SIGTERM sent within its first milliseconds (issue 47.12). Nothing sets them to be ignored
/// now: that discards a pending signal too.
enum SignalHandlers {
    /// The signals the server handles.
    static let handled: [ProcessSignal] = [.terminate, .interrupt, .hangUp]

    /// First thing in `main`, before any thread: every thread started later inherits the block.
    static func blockAtStart() { System.block(handled) }

    /// For the commands that end by themselves (`report`, `health`...): signals act as usual, a
    /// pending one at once.
    static func restoreDefault() { System.unblock(handled) }

    /// Returns the sources, each registered with the system; the caller keeps them alive for as
    /// long as it serves. Call it once the server is started: a signal sent before waits for it.
    ///
    /// A source starts receiving only once Dispatch has registered it, a moment after `resume`, so
    /// this returns only after every source is registered (at most `registrationSeconds`); a stop
    /// signal still pending then (one that came before, where the system reports to a source only
    /// the signals sent after it registered: a Mac's kqueue) is acted on as if the source took it.
    static func install(
        server: SKANMockServer, pidFile: PidFile? = nil, registrationSeconds: Double = 5
    ) -> [any DispatchSourceSignal] {
        let queue = DispatchQueue(label: "skan-mock.signals")
        let registered = DispatchGroup()
        func source(_ signal: ProcessSignal, _ handler: @escaping @Sendable () -> Void) -> any DispatchSourceSignal {
            let source = DispatchSource.makeSignalSource(signal: signal.number, queue: queue)
            source.setEventHandler(handler: handler)
            registered.enter()
            source.setRegistrationHandler { registered.leave() }
            source.resume()
            return source
        }
        let stop: @Sendable () -> Void = {
            server.stop(gracePeriod: 5)
            pidFile?.remove()
            System.exitNow(0)
        }
        var sources = [ProcessSignal.terminate, .interrupt].map { source($0, stop) }
        sources.append(source(.hangUp) { server.reportReload(server.reloadModel(), trigger: "SIGHUP") })
        _ = registered.wait(timeout: .now() + .milliseconds(Int(registrationSeconds * 1000)))
        // On the sources' queue: a source that takes the same signal runs after, and never, since
        // the stop ends the process.
        if !System.pending([.terminate, .interrupt]).isEmpty { queue.async(execute: stop) }
        return sources
    }
}
