import Dispatch
import SystemPOSIX

/// The postback sender's blocking POSTs, on threads of their own: at most `workers` sends at once
/// and at most `capacity` waiting; past that a send is refused (503) rather than queued without
/// end. Blocking sends on `DispatchQueue.global()` took the threads that timers run on, so a
/// receiver that never answered held other tenants' waits and delay faults for seconds (issue
/// 47.6). A lifecycle part: its stop abandons what waits and gives what runs the grace period.
final class PostbackSendQueue: Sendable {
    /// One send request: `run` posts (asking `stopping` between posts), `abandon` answers and
    /// journals a send the queue stopped before it ran.
    struct Job: Sendable {
        let run: @Sendable (_ stopping: @Sendable () -> Bool) -> Void
        let abandon: @Sendable () -> Void
    }

    enum Admission: Equatable {
        case queued
        /// `capacity` sends already wait.
        case full(waiting: Int)
        case stopped
    }

    static let defaultWorkers = 4
    static let defaultCapacity = 32

    let workers: Int
    let capacity: Int

    private struct State {
        var waiting: [Job] = []
        /// The worker queues not draining now.
        var idle: [Int]
        var stopped = false
    }

    private let state: Mutex<State>
    private let queues: [DispatchQueue]
    private let running = DispatchGroup()

    init(workers: Int = defaultWorkers, capacity: Int = defaultCapacity) {
        self.workers = max(1, workers)
        self.capacity = max(1, capacity)
        // Labeled serial queues get threads of their own (Dispatch's overcommit pool), unlike the
        // global queue's few, which the timers share.
        queues = (0..<self.workers).map { DispatchQueue(label: "skan-mock.postback-sender.\($0)") }
        state = Mutex(State(idle: Array((0..<self.workers).reversed())))
    }

    /// Queues `job`, or says why not.
    func submit(_ job: Job) -> Admission {
        let (admission, worker) = state.withLock { s -> (Admission, Int?) in
            guard !s.stopped else { return (.stopped, nil) }
            guard s.waiting.count < capacity else { return (.full(waiting: s.waiting.count), nil) }
            s.waiting.append(job)
            return (.queued, s.idle.popLast())
        }
        if let worker {
            running.enter()
            queues[worker].async { self.drain(worker) }
        }
        return admission
    }

    /// Runs waiting jobs on `worker` until none is left.
    private func drain(_ worker: Int) {
        defer { running.leave() }
        let stopping: @Sendable () -> Bool = { [state] in state.withLock { $0.stopped } }
        while let job = state.withLock({ s -> Job? in
            guard !s.waiting.isEmpty else {
                s.idle.append(worker)
                return nil
            }
            return s.waiting.removeFirst()
        }) {
            job.run(stopping)
        }
    }

    /// Sends waiting now, for health and tests.
    var waiting: Int { state.withLock { $0.waiting.count } }

    var isStopped: Bool { state.withLock { $0.stopped } }

    /// Refuses new sends, abandons the waiting ones and waits up to `gracePeriod` seconds for the
    /// running ones, which post nothing more once they see the stop.
    func stop(gracePeriod: Double) {
        let abandoned = state.withLock { s -> [Job] in
            s.stopped = true
            defer { s.waiting = [] }
            return s.waiting
        }
        for job in abandoned { job.abandon() }
        let nanoseconds = UInt64(max(0, min(gracePeriod, 60)) * 1e9)
        _ = running.wait(timeout: .now() + .nanoseconds(Int(nanoseconds)))
    }
}
