import Dispatch
import Testing

@testable import SystemPOSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The poller the event loops stand on (epoll here, kqueue on a Mac): edge-triggered readiness of
/// real loopback sockets, reported under the token each socket was registered with.
@Suite struct PollerTests {
    /// A connected pair: the server's side (accepted, non-blocking) and the client's.
    func pair() throws -> (server: Int32, client: Int32, listener: Int32) {
        let listener = try System.listen(host: "127.0.0.1", port: 0, backlog: 8)
        let client = try System.connect(host: "127.0.0.1", port: System.localPort(listener), timeout: 2)
        // The connection is waited for with poll, a bounded while.
        for _ in 0..<2 where System.waitReadable(listener, milliseconds: 1_000) {
            if case .done(let accepted)? = try? System.accept(listener) { return (accepted.fd, client, listener) }
        }
        throw SystemError(code: 0, function: "accept")
    }

    /// What the poller has, once it has something: its own descriptor turns readable then (waited
    /// for with poll, at most 2 s), so nothing here sleeps.
    func take(_ poller: Poller) -> [PollEvent] {
        var events: [PollEvent] = []
        let deadline = DispatchTime.now().uptimeNanoseconds + 2_000_000_000
        while DispatchTime.now().uptimeNanoseconds < deadline {
            poller.take(into: &events, max: 16)
            if !events.isEmpty { return events }
            _ = System.waitReadable(poller.descriptor, milliseconds: 100)
        }
        return events
    }

    @Test func reportsEachEdgeOnceUnderItsTokenAndTheEndOfInput() throws {
        let (server, client, listener) = try pair()
        defer { [server, listener].forEach(System.close) }  // the client is closed below
        let poller = try Poller()
        defer { poller.close() }
        try poller.add(server, token: 42)
        // Registered: writable at once (room to send), nothing to read.
        let first = take(poller)
        #expect(first.contains { $0.token == 42 && $0.writable && !$0.readable })
        var none: [PollEvent] = []
        poller.take(into: &none, max: 16)
        #expect(none.isEmpty)  // edge-triggered: said once

        _ = try Array("ping".utf8).withUnsafeBytes { try System.send(client, $0.baseAddress!, $0.count) }
        #expect(take(poller).contains { $0.token == 42 && $0.readable && !$0.peerClosed })

        System.close(client)
        let closing = take(poller)
        #expect(closing.contains { $0.token == 42 && $0.readable && $0.peerClosed })

        poller.remove(server)
        poller.take(into: &none, max: 16)
        #expect(none.isEmpty)
    }

    /// A blocking wait returns with the socket's event, and `interrupt()` from another thread
    /// ends a wait with nothing ready, under the interrupt's token (how an event loop stops).
    @Test func aBlockingWaitReturnsEventsAndIsInterrupted() throws {
        let (server, client, listener) = try pair()
        defer { [server, client, listener].forEach(System.close) }
        let poller = try Poller()
        defer { poller.close() }
        try poller.add(server, token: 7)
        var events: [PollEvent] = []
        poller.wait(into: &events, max: 16)
        #expect(events.contains { $0.token == 7 && $0.writable })

        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { poller.interrupt() }
        poller.wait(into: &events, max: 16)
        #expect(events.map(\.token) == [Poller.interruptToken])
    }

    /// A refusal comes back with the call and its reason, not as a bare failure.
    @Test func aRefusedRegistrationSaysWhy() throws {
        let poller = try Poller()
        defer { poller.close() }
        #expect {
            try poller.add(-1, token: 1)
        } throws: { error in
            let failure = error as? SystemError
            return failure?.code == EBADF && failure?.description.hasSuffix(System.errorText(EBADF)) == true
        }
    }
}
