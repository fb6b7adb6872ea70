import CCurl
import Dispatch
import SystemPOSIX

/// An HTTP(S) client for one upstream service, on libcurl's multi interface: any number of
/// requests in flight on one thread of its own, connections kept alive and reused, HTTPS verified
/// against the system's trust store (or one CA file), every request bounded by its timeout. The
/// caller is never blocked: `send` queues the request and its completion runs on a dispatch queue.
/// At most `maxInFlight` transfers run at once (each a connection, kept alive), and at most
/// `maxWaiting` wait for one, holding at most `maxWaitingBytes` of targets and bodies: past either a
/// request is not sent (`.notSent`), so an upstream slower than the traffic costs a bounded queue,
/// not memory and CPU without end.
/// Why libcurl: the test suites already link it, it is on every Mac and Linux, and it brings
/// certificate verification, keep-alive and HTTP/1.1 framing that the server's own code would
/// otherwise have to grow a second time for the client side.
public final class UpstreamClient: Sendable {
    private let queue = RequestQueue()
    private let multi: CurlMulti
    private let caFile: String?
    private let loopQueue = DispatchQueue(label: "upstream.curl")
    /// Serial: completions journal and count under shared locks; many threads at once would
    /// only contend for them (and spin), taking the cores from the event loops.
    private let completionQueue = DispatchQueue(label: "upstream.completions")
    public let maxInFlight: Int
    public let maxWaiting: Int
    public let maxWaitingBytes: Int
    /// Signalled once the loop has ended and every completion has run.
    private let finished = DispatchSemaphore(value: 0)
    /// The largest upstream answer body passed on: 64 KiB.
    public static let maxBodyBytes = 64 * 1024

    /// Requests waiting for the loop, and whether it should stop: shared by `send` and the loop.
    private final class RequestQueue: Sendable {
        struct State {
            /// Waiting requests, oldest first from `head` (taken without moving the rest).
            var pending: [(UpstreamRequest, @Sendable (UpstreamResult) -> Void)] = []
            var head = 0
            /// The targets and bodies of the waiting requests.
            var waitingBytes = 0
            var stopping = false
            /// The loop is about to wait, or waiting, in `curl_multi_poll`: a new request must wake
            /// it. While it runs it takes what came at its next turn, so under load one wake-up
            /// serves many requests instead of a system call and a thread switch each.
            var loopAsleep = false

            var waiting: Int { pending.count - head }

            /// Takes up to `count` of the oldest waiting requests.
            mutating func take(_ count: Int) -> [(UpstreamRequest, @Sendable (UpstreamResult) -> Void)] {
                let end = head + Swift.min(count, waiting)
                // A copy of just these, before `pending` changes: a slice kept alive across the
                // change below would make it copy every waiting request.
                let taken = Array(pending[head..<end])
                for (request, _) in taken { waitingBytes -= request.heldBytes }
                head = end
                if head == pending.count {
                    pending.removeAll(keepingCapacity: true)
                    head = 0
                } else if head > 1024 && head * 2 > pending.count {
                    pending.removeFirst(head)
                    head = 0
                }
                return taken
            }
        }

        let state = Mutex(State())
    }

    private static let globalInit: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    /// Whether libcurl would send a plain-HTTP request through a forward proxy named in the
    /// environment (it reads `http_proxy`, `all_proxy` and `ALL_PROXY` for http:// URLs); such a
    /// request needs the whole URL as its target, which only libcurl's own URL handling gives.
    /// HTTPS through a proxy is tunnelled, so its target stays the path and query.
    static func proxiesPlainHTTP() -> Bool {
        ["http_proxy", "all_proxy", "ALL_PROXY"].contains { System.environment($0)?.isEmpty == false }
    }

    /// `caFile` (PEM) replaces the system's trust store for HTTPS upstreams when given.
    public init(caFile: String? = nil, maxInFlight: Int = 64, maxWaiting: Int = 4096, maxWaitingBytes: Int = 64 << 20) {
        Self.globalInit
        self.caFile = caFile
        self.maxInFlight = max(1, maxInFlight)
        self.maxWaiting = max(0, maxWaiting)
        self.maxWaitingBytes = max(0, maxWaitingBytes)
        multi = CurlMulti()
        let multi = self.multi
        let queue = self.queue
        let completions = completionQueue
        let limit = self.maxInFlight
        let finished = self.finished
        let targets = TargetForm(plainHTTPProxied: Self.proxiesPlainHTTP())
        loopQueue.async {
            multi.run(queue: queue, caFile: caFile, targets: targets, maxInFlight: limit, completions: completions)
            completions.sync {}  // every completion handed over has run
            finished.signal()
        }
    }

    /// Queues `request`; `completion` gets the answer, a timeout or the reason it was not sent, on
    /// another queue; when the queue is full, at once on the caller's thread (`.notSent`).
    public func send(_ request: UpstreamRequest, completion: @escaping @Sendable (UpstreamResult) -> Void) {
        enum Verdict {
            case queued(wake: Bool)
            case stopped
            case full(Int)
        }
        var request = request
        request.queuedAtNanos = DispatchTime.now().uptimeNanoseconds
        let verdict = queue.state.withLock { state -> Verdict in
            guard !state.stopping else { return .stopped }
            // One request always fits, however large: the server's own limits bound it.
            guard state.waiting < maxWaiting,
                state.waiting == 0 || state.waitingBytes + request.heldBytes <= maxWaitingBytes
            else { return .full(state.waiting) }
            state.pending.append((request, completion))
            state.waitingBytes += request.heldBytes
            defer { state.loopAsleep = false }
            return .queued(wake: state.loopAsleep)
        }
        switch verdict {
        case .queued(let wake):
            if wake { multi.wakeUp() }
        case .stopped:
            completionQueue.async { completion(.notSent(.stopping)) }
        case .full(let waiting):
            // At once, on the caller's thread: a request that goes nowhere costs no thread switch.
            completion(.notSent(.queueFull(waiting: waiting)))
        }
    }

    /// Stops: requests not yet sent complete at once as not sent (`.stopping`), transfers in flight end
    /// (each bounded by its timeout), then the loop stops. Waits at most `seconds` for all of that
    /// and every completion; true when it all ended in time.
    @discardableResult
    public func stop(waitingAtMost seconds: Double = 0) -> Bool {
        let first = queue.state.withLock { state -> Bool in
            defer { state.stopping = true }
            return !state.stopping
        }
        multi.wakeUp()
        guard first, seconds > 0 else { return false }
        let ended = finished.wait(timeout: .now() + .milliseconds(Int(seconds * 1000))) == .success
        if ended { finished.signal() }
        return ended
    }

    deinit { stop() }

    /// The multi handle and the transfers on it: touched only by `run` on the loop's queue, but for
    /// `wakeUp`, which libcurl allows from any thread.
    private final class CurlMulti: @unchecked Sendable {
        let handle: UnsafeMutableRawPointer
        private var transfers: [UnsafeMutableRawPointer: Transfer] = [:]
        /// Easy handles of finished transfers, kept for the next ones: making one per request costs
        /// more than the request's own work in libcurl. `plain`: its last transfer was a GET
        /// without a body, so a GET can reuse it as it is, without a reset and every option again.
        private var spare: [(easy: UnsafeMutableRawPointer, plain: Bool)] = []
        private static let spareLimit = 64

        init() {
            handle = curl_multi_init()
        }

        func wakeUp() {
            _ = curl_multi_wakeup(handle)
        }

        func run(
            queue: RequestQueue, caFile: String?, targets: TargetForm, maxInFlight: Int, completions: DispatchQueue
        ) {
            while true {
                let room = maxInFlight - transfers.count
                let (new, stopping, unsent) = queue.state.withLock { state in
                    // Stopping: what has not started is not started now; it is told so.
                    state.stopping
                        ? ([], true, state.take(state.waiting)) : (state.take(room), false, [])
                }
                for (_, completion) in unsent { completions.async { completion(.notSent(.stopping)) } }
                let now = DispatchTime.now().uptimeNanoseconds
                for (queued, completion) in new {
                    // The time it waited counts against its timeout; none left, it is not sent.
                    var request = queued
                    let waited = now &- request.queuedAtNanos
                    let left = request.timeoutSeconds - Double(waited) / 1e9
                    guard left >= 0.001 else {
                        completions.async { completion(.notSent(.waitedPastTimeout(micros: Int64(waited / 1000)))) }
                        continue
                    }
                    request.timeoutSeconds = left
                    let transfer = Transfer(
                        request: request, handle: spare.popLast(), caFile: caFile, targets: targets,
                        completion: completion)
                    transfers[transfer.easy] = transfer
                    curl_multi_add_handle(handle, transfer.easy)
                }
                if stopping && transfers.isEmpty { break }
                var running: Int32 = 0
                curl_multi_perform(handle, &running)
                var left: Int32 = 0
                // The transfers that ended in this turn complete in one block: one hand-over (and
                // at most one thread woken) for all of them, not one each.
                var ended: [(Transfer, UpstreamResult)] = []
                while let message = curl_multi_info_read(handle, &left) {
                    guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                        let transfer = transfers.removeValue(forKey: easy)
                    else { continue }
                    let result = transfer.result(code: message.pointee.data.result)
                    curl_multi_remove_handle(handle, easy)
                    transfer.releaseRequest()
                    if spare.count < Self.spareLimit {
                        spare.append((easy, transfer.plain))
                    } else {
                        curl_easy_cleanup(easy)
                    }
                    ended.append((transfer, result))
                }
                if !ended.isEmpty {
                    completions.async { [ended] in for (transfer, result) in ended { transfer.completion(result) } }
                }
                // Waits in the poll unless there are requests it can start now; a new request wakes
                // it only if it could start (at `maxInFlight`, a transfer ending wakes it anyway).
                let idle = queue.state.withLock { state -> Bool in
                    let full = transfers.count >= maxInFlight
                    let idle = state.waiting == 0 || full
                    state.loopAsleep = idle && !full
                    return idle
                }
                if idle { curl_multi_poll(handle, nil, 0, 1000, nil) } else { curl_multi_poll(handle, nil, 0, 0, nil) }
            }
            for (easy, _) in spare { curl_easy_cleanup(easy) }
            spare.removeAll()
            curl_multi_cleanup(handle)
        }
    }

    /// How a request's target reaches libcurl: apart from the URL where it can be, whole where a
    /// forward proxy needs libcurl to write the absolute URL. A target that is not a path of
    /// visible ASCII is left to libcurl's URL handling too, never written raw into a request line.
    struct TargetForm: Sendable {
        let plainHTTPProxied: Bool

        func givesTargetApart(for request: UpstreamRequest) -> Bool {
            if plainHTTPProxied && request.origin.hasPrefix("http://") { return false }
            var target = request.target
            return target.withUTF8 { bytes in
                guard bytes.first == UInt8(ascii: "/") else { return false }
                // Branch-free, so that the compiler checks many bytes at once: 0x21...0x7E moved
                // down to 0...0x5D, every other byte lands above.
                var outside: UInt8 = 0
                for byte in bytes { outside |= byte &- 0x21 > 0x5D ? 1 : 0 }
                return outside == 0
            }
        }
    }

    /// One request on the wire: its easy handle, headers and the body coming back.
    private final class Transfer: @unchecked Sendable {
        let easy: UnsafeMutableRawPointer
        /// A GET without a body: its handle can serve the next such request with only the options
        /// that change per request set again.
        let plain: Bool
        let completion: @Sendable (UpstreamResult) -> Void
        private var headers: UnsafeMutablePointer<curl_slist>?
        private var body: [UInt8] = []
        /// The body passed `maxBody`: the transfer is stopped, never passed on cut.
        private var overLimit = false
        private let started = DispatchTime.now().uptimeNanoseconds

        init(
            request: UpstreamRequest, handle: (easy: UnsafeMutableRawPointer, plain: Bool)?, caFile: String?,
            targets: TargetForm, completion: @escaping @Sendable (UpstreamResult) -> Void
        ) {
            let easy = handle?.easy ?? curl_easy_init()!
            self.easy = easy
            self.completion = completion
            plain = request.method == "GET" && request.body.isEmpty
            // A spare handle keeps every option of its last transfer: one that was a plain GET
            // serves another as it is, with only what changes per request set again below; any
            // other is reset first, so that no method or body carries over.
            if !(plain && handle?.plain == true) {
                if handle != nil { curl_easy_reset(easy) }
                Self.setFixedOptions(easy, request, caFile: caFile)
            }
            if targets.givesTargetApart(for: request) {
                // The origin as the URL, the path and query as the request line's target: given a
                // whole URL, libcurl parses a 1 KB query again and formats it into the request line
                // a byte at a time, about 170k instructions a request, more than the server's own
                // work on it. The target goes out as it is.
                skan_curl_setopt_string(easy, CURLOPT_URL, request.origin)
                skan_curl_setopt_string(easy, CURLOPT_REQUEST_TARGET, request.target)
            } else {
                skan_curl_setopt_string(easy, CURLOPT_URL, request.url)
                skan_curl_setopt_string(easy, CURLOPT_REQUEST_TARGET, nil)
            }
            skan_curl_setopt_long(easy, CURLOPT_TIMEOUT_MS, Int(request.timeoutSeconds * 1000))
            // No "Expect: 100-continue" round trip for small form bodies.
            headers = curl_slist_append(headers, "Expect:")
            for header in request.headers { headers = curl_slist_append(headers, header) }
            skan_curl_setopt_slist(easy, CURLOPT_HTTPHEADER, headers)
            skan_curl_setopt_callback(easy, CURLOPT_WRITEFUNCTION, Transfer.receive)
            skan_curl_setopt_pointer(easy, CURLOPT_WRITEDATA, Unmanaged.passUnretained(self).toOpaque())
        }

        /// The options a plain GET's handle keeps for the next plain GET: the upstream's rules, the
        /// method and the body.
        private static func setFixedOptions(
            _ easy: UnsafeMutableRawPointer, _ request: UpstreamRequest, caFile: String?
        ) {
            // Only the configured upstream is ever contacted: no redirects, HTTP(S) only.
            skan_curl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0)
            skan_curl_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
            skan_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
            skan_curl_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 1)
            skan_curl_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 2)
            if let caFile {
                // The file replaces the system's trust store: without clearing the CA folder too,
                // libcurl would still trust every system CA beside it.
                skan_curl_setopt_string(easy, CURLOPT_CAINFO, caFile)
                skan_curl_setopt_string(easy, CURLOPT_CAPATH, nil)
            }
            switch request.method {
            case "GET": skan_curl_setopt_long(easy, CURLOPT_HTTPGET, 1)
            case "HEAD": skan_curl_setopt_long(easy, CURLOPT_NOBODY, 1)
            default: skan_curl_setopt_string(easy, CURLOPT_CUSTOMREQUEST, request.method)
            }
            if !request.body.isEmpty || request.method == "POST" {
                skan_curl_setopt_long(easy, CURLOPT_POSTFIELDSIZE, request.body.count)
                request.body.withUnsafeBytes { bytes in
                    _ = skan_curl_setopt_pointer(
                        easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                }
                if request.method != "POST" { skan_curl_setopt_string(easy, CURLOPT_CUSTOMREQUEST, request.method) }
            }
        }

        /// The largest upstream body passed on (Singular's answers are under 200 bytes); a larger
        /// one stops the transfer and is reported, never cut and passed on as if whole.
        static let maxBody = UpstreamClient.maxBodyBytes

        static let receive: skan_curl_io_callback = { data, size, count, context in
            let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
            let length = size * count
            guard transfer.body.count + length <= maxBody else {
                transfer.overLimit = true
                transfer.body = []
                return 0  // libcurl stops the transfer (CURLE_WRITE_ERROR)
            }
            data!.withMemoryRebound(to: UInt8.self, capacity: length) {
                transfer.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
            }
            return length
        }

        func result(code: CURLcode) -> UpstreamResult {
            let micros = Int64((DispatchTime.now().uptimeNanoseconds - started) / 1000)
            if overLimit { return .tooLarge(limit: Self.maxBody, durationMicros: micros) }
            switch code {
            case CURLE_OK:
                var status = 0
                skan_curl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
                return .response(status: status, body: body, durationMicros: micros)
            case CURLE_OPERATION_TIMEDOUT:
                return .timeout(durationMicros: micros)
            default:
                return .unreachable(reason: String(cString: curl_easy_strerror(code)), durationMicros: micros)
            }
        }

        /// Frees what the transfer itself allocated; the easy handle goes back to the pool.
        func releaseRequest() {
            curl_slist_free_all(headers)
            headers = nil
        }
    }
}
