import Dispatch
import SKANMock
#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM/SIGINT stop the server gracefully and exit 0; SIGHUP reloads the model file.
/// Signals are taken as dispatch sources (not async-signal handlers), so the work they trigger
/// runs as ordinary code.
enum SignalHandlers {
    /// Returns the sources; the caller keeps them alive for as long as it serves.
    static func install(server: SKANMockServer) -> [any DispatchSourceSignal] {
        var sources: [any DispatchSourceSignal] = []
        let queue = DispatchQueue(label: "skan-mock.signals")
        for number in [SIGTERM, SIGINT] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                server.stop(gracePeriod: 5)
                exit(0)
            }
            source.resume()
            sources.append(source)
        }
        signal(SIGHUP, SIG_IGN)
        let reload = DispatchSource.makeSignalSource(signal: SIGHUP, queue: queue)
        reload.setEventHandler {
            server.reportReload(server.reloadModel(), trigger: "SIGHUP")
        }
        reload.resume()
        sources.append(reload)
        return sources
    }
}
