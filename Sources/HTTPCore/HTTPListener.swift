import Dispatch
import SystemPOSIX

/// The listening socket, its accept source and the deadline sweep; every field is touched only on
/// the accept queue (hence `@unchecked Sendable`). Accepting does nothing else: each socket is
/// handed to `admit` at once.
final class HTTPListener: @unchecked Sendable {
    private let fd: Int32
    private let queue: DispatchQueue
    private let admit: @Sendable (Int32, String) -> Void
    private let sweep: @Sendable () -> Void
    private var source: DispatchSourceRead?
    private var timer: DispatchSourceTimer?
    private var paused = false

    init(
        fd: Int32, queue: DispatchQueue, admit: @escaping @Sendable (Int32, String) -> Void,
        sweep: @escaping @Sendable () -> Void
    ) {
        self.fd = fd
        self.queue = queue
        self.admit = admit
        self.sweep = sweep
    }

    func start() {
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { [unowned self] in self.acceptPending() }
        source.setCancelHandler { [fd] in System.close(fd) }
        self.source = source
        source.resume()

        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + 0.5, repeating: 0.5, leeway: .milliseconds(100))
        timer.setEventHandler { [sweep] in sweep() }
        self.timer = timer
        timer.resume()
    }

    func stop() {
        if paused {
            paused = false
            source?.resume()
        }
        source?.cancel()
        timer?.cancel()
        source = nil
        timer = nil
    }

    private func acceptPending() {
        while true {
            do {
                switch try System.accept(fd) {
                case .done(let client): admit(client.fd, client.remote)
                case .wouldBlock: return  // nothing left to accept
                }
            } catch {
                if error.isAbortedConnection { continue }
                if error.isOutOfResources {
                    // Out of descriptors or memory: the connection stays queued in the backlog.
                    // Pause so the level-triggered source does not spin, then try again.
                    pause(for: .milliseconds(100))
                }
                return  // anything else: the next event retries
            }
        }
    }

    private func pause(for delay: DispatchTimeInterval) {
        guard !paused, let source else { return }
        paused = true
        source.suspend()
        queue.asyncAfter(deadline: .now() + delay) { [self] in
            if paused {
                paused = false
                self.source?.resume()
            }
        }
    }
}
