import Dispatch
import SKANMock
import SystemPOSIX

/// SIGTERM/SIGINT stop the server gracefully and exit 0; SIGHUP reloads the model file.
/// Signals are taken as dispatch sources (not async-signal handlers), so the work they trigger
/// runs as ordinary code.
enum SignalHandlers {
    /// Returns the sources, each registered with the system; the caller keeps them alive for as
    /// long as it serves.
    ///
    /// A source starts receiving only once Dispatch has registered it, a moment after `resume`,
    /// and the signal is ignored from `System.ignore` on: a SIGTERM in between was lost, and a
    /// script (or a test) that stopped the server right after its start-up line waited forever.
    /// So this returns only after every source is registered (at most `registrationSeconds`).
    static func install(
        server: SKANMockServer, pidFile: PidFile? = nil, registrationSeconds: Double = 5
    ) -> [any DispatchSourceSignal] {
        let queue = DispatchQueue(label: "skan-mock.signals")
        let registered = DispatchGroup()
        func source(_ signal: ProcessSignal, _ handler: @escaping @Sendable () -> Void) -> any DispatchSourceSignal {
            System.ignore(signal)
            let source = DispatchSource.makeSignalSource(signal: signal.number, queue: queue)
            source.setEventHandler(handler: handler)
            registered.enter()
            source.setRegistrationHandler { registered.leave() }
            source.resume()
            return source
        }
        var sources = [ProcessSignal.terminate, .interrupt].map { stop in
            source(stop) {
                server.stop(gracePeriod: 5)
                pidFile?.remove()
                System.exitNow(0)
            }
        }
        sources.append(source(.hangUp) { server.reportReload(server.reloadModel(), trigger: "SIGHUP") })
        _ = registered.wait(timeout: .now() + .milliseconds(Int(registrationSeconds * 1000)))
        return sources
    }
}
