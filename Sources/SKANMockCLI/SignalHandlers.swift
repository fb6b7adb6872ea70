import Dispatch
import SKANMock
import SystemPOSIX

/// SIGTERM/SIGINT stop the server gracefully and exit 0; SIGHUP reloads the model file.
/// Signals are taken as dispatch sources (not async-signal handlers), so the work they trigger
/// runs as ordinary code.
enum SignalHandlers {
    /// Returns the sources; the caller keeps them alive for as long as it serves.
    static func install(server: SKANMockServer, pidFile: PidFile? = nil) -> [any DispatchSourceSignal] {
        var sources: [any DispatchSourceSignal] = []
        let queue = DispatchQueue(label: "skan-mock.signals")
        for stop in [ProcessSignal.terminate, .interrupt] {
            System.ignore(stop)
            let source = DispatchSource.makeSignalSource(signal: stop.number, queue: queue)
            source.setEventHandler {
                server.stop(gracePeriod: 5)
                pidFile?.remove()
                System.exitNow(0)
            }
            source.resume()
            sources.append(source)
        }
        System.ignore(.hangUp)
        let reload = DispatchSource.makeSignalSource(signal: ProcessSignal.hangUp.number, queue: queue)
        reload.setEventHandler {
            server.reportReload(server.reloadModel(), trigger: "SIGHUP")
        }
        reload.resume()
        sources.append(reload)
        return sources
    }
}
