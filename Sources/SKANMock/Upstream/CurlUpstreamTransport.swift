#if SKAN_MOCK_UPSTREAM
    import UpstreamHTTP

    /// The real upstream: libcurl's client (`UpstreamClient`), its results worded for the journal.
    final class CurlUpstreamTransport: UpstreamTransport {
        private let client: UpstreamClient

        init(_ options: UpstreamOptions) {
            client = UpstreamClient(
                caFile: options.caFile, maxInFlight: options.maxInFlight, maxWaiting: options.maxWaiting,
                maxWaitingBytes: options.maxWaitingBytes)
        }

        func send(_ exchange: UpstreamForward, completion: @escaping @Sendable (UpstreamReply) -> Void) {
            let request = UpstreamRequest(
                method: exchange.method, origin: exchange.origin, target: exchange.target, headers: exchange.headers,
                body: exchange.body,
                timeoutSeconds: exchange.timeoutSeconds)
            let timeout = exchange.timeoutSeconds
            client.send(request) { result in
                switch result {
                case .response(let status, let body, let micros):
                    completion(.answer(status: status, body: body, durationMicros: micros))
                case .tooLarge(let limit, let micros):
                    completion(.tooLarge(limit: limit, durationMicros: micros))
                case .timeout(let micros):
                    completion(.timedOut(afterSeconds: timeout, durationMicros: micros))
                case .unreachable(let reason, let micros):
                    completion(.unreachable(reason, durationMicros: micros))
                case .notSent(.queueFull(let waiting)):
                    completion(.notSent(queueFull: waiting))
                case .notSent(.waitedPastTimeout(let micros)):
                    completion(.notSent(waitedMicros: micros))
                case .notSent(.stopping):
                    completion(.notSentStopping)
                }
            }
        }

        func stop(waitingAtMost seconds: Double) {
            client.stop(waitingAtMost: seconds)
        }
    }
#endif
