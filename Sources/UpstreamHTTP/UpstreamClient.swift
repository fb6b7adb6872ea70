import CCurl
import Dispatch
import Synchronization

/// An HTTP(S) client for one upstream service, on libcurl's multi interface: any number of
/// requests in flight on one thread of its own, connections kept alive and reused, HTTPS verified
/// against the system's trust store (or one CA file), every request bounded by its timeout. The
/// caller is never blocked: `send` queues the request and its completion runs on a dispatch queue.
/// Why libcurl: the test suites already link it, it is on every Mac and Linux, and it brings
/// certificate verification, keep-alive and HTTP/1.1 framing that the server's own code would
/// otherwise have to grow a second time for the client side.
public final class UpstreamClient: Sendable {
    private let queue = RequestQueue()
    private let multi: CurlMulti
    private let caFile: String?
    private let loopQueue = DispatchQueue(label: "upstream.curl")
    private let completionQueue = DispatchQueue(label: "upstream.completions", attributes: .concurrent)

    /// Requests waiting for the loop, and whether it should stop: shared by `send` and the loop.
    private final class RequestQueue: Sendable {
        struct State {
            var pending: [(UpstreamRequest, @Sendable (UpstreamResult) -> Void)] = []
            var stopping = false
        }

        let state = Mutex(State())
    }

    private static let globalInit: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    /// `caFile` (PEM) replaces the system's trust store for HTTPS upstreams when given.
    public init(caFile: String? = nil) {
        Self.globalInit
        self.caFile = caFile
        multi = CurlMulti()
        let multi = self.multi
        let queue = self.queue
        let completions = completionQueue
        loopQueue.async { multi.run(queue: queue, caFile: caFile, completions: completions) }
    }

    /// Queues `request`; `completion` gets the answer, a timeout or the reason it could not be sent.
    public func send(_ request: UpstreamRequest, completion: @escaping @Sendable (UpstreamResult) -> Void) {
        let accepted = queue.state.withLock { state -> Bool in
            guard !state.stopping else { return false }
            state.pending.append((request, completion))
            return true
        }
        guard accepted else {
            completionQueue.async {
                completion(.unreachable(reason: "the upstream client is stopped", durationMicros: 0))
            }
            return
        }
        multi.wakeUp()
    }

    /// Lets transfers in flight end (each is bounded by its timeout), then stops the loop.
    public func stop() {
        queue.state.withLock { $0.stopping = true }
        multi.wakeUp()
    }

    deinit { stop() }

    /// The multi handle and the transfers on it: touched only by `run` on the loop's queue, but for
    /// `wakeUp`, which libcurl allows from any thread.
    private final class CurlMulti: @unchecked Sendable {
        let handle: UnsafeMutableRawPointer
        private var transfers: [UnsafeMutableRawPointer: Transfer] = [:]
        /// Easy handles of finished transfers, reset and kept for the next ones: making one per
        /// request costs more than the request's own work in libcurl.
        private var spare: [UnsafeMutableRawPointer] = []
        private static let spareLimit = 64

        init() {
            handle = curl_multi_init()
        }

        func wakeUp() {
            _ = curl_multi_wakeup(handle)
        }

        func run(queue: RequestQueue, caFile: String?, completions: DispatchQueue) {
            while true {
                let (new, stopping) = queue.state.withLock { state in
                    defer { state.pending.removeAll() }
                    return (state.pending, state.stopping)
                }
                for (request, completion) in new {
                    let transfer = Transfer(
                        request: request, easy: spare.popLast() ?? curl_easy_init(), caFile: caFile,
                        completion: completion)
                    transfers[transfer.easy] = transfer
                    curl_multi_add_handle(handle, transfer.easy)
                }
                if stopping && transfers.isEmpty { break }
                var running: Int32 = 0
                curl_multi_perform(handle, &running)
                var left: Int32 = 0
                while let message = curl_multi_info_read(handle, &left) {
                    guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                        let transfer = transfers.removeValue(forKey: easy)
                    else { continue }
                    let result = transfer.result(code: message.pointee.data.result)
                    curl_multi_remove_handle(handle, easy)
                    transfer.releaseRequest()
                    if spare.count < Self.spareLimit {
                        curl_easy_reset(easy)
                        spare.append(easy)
                    } else {
                        curl_easy_cleanup(easy)
                    }
                    completions.async { transfer.completion(result) }
                }
                curl_multi_poll(handle, nil, 0, 1000, nil)
            }
            for easy in spare { curl_easy_cleanup(easy) }
            spare.removeAll()
            curl_multi_cleanup(handle)
        }
    }

    /// One request on the wire: its easy handle, headers and the body coming back.
    private final class Transfer: @unchecked Sendable {
        let easy: UnsafeMutableRawPointer
        let completion: @Sendable (UpstreamResult) -> Void
        private var headers: UnsafeMutablePointer<curl_slist>?
        private var body: [UInt8] = []
        private let started = DispatchTime.now().uptimeNanoseconds

        init(
            request: UpstreamRequest, easy: UnsafeMutableRawPointer, caFile: String?,
            completion: @escaping @Sendable (UpstreamResult) -> Void
        ) {
            self.easy = easy
            self.completion = completion
            skan_curl_setopt_string(easy, CURLOPT_URL, request.url)
            // Only the configured upstream is ever contacted: no redirects, HTTP(S) only.
            skan_curl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0)
            skan_curl_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
            skan_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
            skan_curl_setopt_long(easy, CURLOPT_TIMEOUT_MS, Int(request.timeoutSeconds * 1000))
            skan_curl_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 1)
            skan_curl_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 2)
            if let caFile { skan_curl_setopt_string(easy, CURLOPT_CAINFO, caFile) }
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
            // No "Expect: 100-continue" round trip for small form bodies.
            headers = curl_slist_append(headers, "Expect:")
            for header in request.headers { headers = curl_slist_append(headers, header) }
            skan_curl_setopt_slist(easy, CURLOPT_HTTPHEADER, headers)
            skan_curl_setopt_callback(easy, CURLOPT_WRITEFUNCTION, Transfer.receive)
            skan_curl_setopt_pointer(easy, CURLOPT_WRITEDATA, Unmanaged.passUnretained(self).toOpaque())
        }

        /// At most this much of an upstream's body is kept (Singular's answers are under 200 bytes).
        static let maxBody = 64 * 1024

        static let receive: skan_curl_io_callback = { data, size, count, context in
            let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
            let length = size * count
            let room = Swift.max(0, maxBody - transfer.body.count)
            data!.withMemoryRebound(to: UInt8.self, capacity: length) {
                transfer.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: Swift.min(length, room)))
            }
            return length
        }

        func result(code: CURLcode) -> UpstreamResult {
            let micros = Int64((DispatchTime.now().uptimeNanoseconds - started) / 1000)
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
