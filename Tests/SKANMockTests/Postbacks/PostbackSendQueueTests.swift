import Dispatch
import SystemPOSIX
import Testing

@testable import SKANMock

/// The sender's own threads and bounded queue (issue 47.6), driven with jobs a test releases.
@Suite struct PostbackSendQueueTests {
    /// A job that waits until the test opens `gate`, then counts itself in `done`.
    private func job(_ gate: DispatchSemaphore, _ done: Mutex<[String]>, _ name: String, abandoned: Mutex<[String]>)
        -> PostbackSendQueue.Job
    {
        PostbackSendQueue.Job(
            run: { stopping in
                _ = gate.wait(timeout: .now() + 10)
                done.withLock { $0.append(stopping() ? name + " (stopping)" : name) }
            },
            abandon: { abandoned.withLock { $0.append(name) } })
    }

    @Test func refusesPastItsBoundAndRunsEveryQueuedJob() {
        let queue = PostbackSendQueue(workers: 2, capacity: 2)
        let gate = DispatchSemaphore(value: 0)
        let done = Mutex<[String]>([])
        let abandoned = Mutex<[String]>([])
        #expect(queue.submit(job(gate, done, "a", abandoned: abandoned)) == .queued)
        #expect(queue.submit(job(gate, done, "b", abandoned: abandoned)) == .queued)
        // Both workers may already hold a and b, or not yet: fill until the queue says it is full.
        var admitted = 2
        while admitted < 10, queue.submit(job(gate, done, "n\(admitted)", abandoned: abandoned)) == .queued {
            admitted += 1
        }
        #expect(admitted <= 4, "two running and two waiting at most")
        #expect(queue.submit(job(gate, done, "late", abandoned: abandoned)) == .full(waiting: 2))
        for _ in 0..<admitted { gate.signal() }
        queue.stop(gracePeriod: 10)
        #expect(done.withLock { $0.count } + abandoned.withLock { $0.count } == admitted)
        #expect(queue.submit(job(gate, done, "after", abandoned: abandoned)) == .stopped)
    }

    /// A stop abandons what waits (each answered and journaled by its `abandon`) and tells what
    /// runs that the server is stopping.
    @Test func aStopAbandonsTheWaitingAndTellsTheRunning() {
        let queue = PostbackSendQueue(workers: 1, capacity: 4)
        let gate = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let done = Mutex<[String]>([])
        let abandoned = Mutex<[String]>([])
        let first = PostbackSendQueue.Job(
            run: { stopping in
                started.signal()
                _ = gate.wait(timeout: .now() + 10)
                done.withLock { $0.append(stopping() ? "first (stopping)" : "first") }
            }, abandon: {})
        #expect(queue.submit(first) == .queued)
        #expect(started.wait(timeout: .now() + 10) == .success)
        #expect(queue.submit(job(gate, done, "second", abandoned: abandoned)) == .queued)
        #expect(queue.waiting == 1)
        let stopped = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            queue.stop(gracePeriod: 10)
            stopped.signal()
        }
        // The running job is let go once the stop has begun, so it sees it.
        let limit = DispatchTime.now().uptimeNanoseconds + 10_000_000_000
        while !queue.isStopped && DispatchTime.now().uptimeNanoseconds < limit {}
        gate.signal()
        #expect(stopped.wait(timeout: .now() + 10) == .success)
        #expect(abandoned.withLock { $0 } == ["second"])
        #expect(done.withLock { $0 } == ["first (stopping)"])
    }
}
