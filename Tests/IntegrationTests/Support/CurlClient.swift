import CCurl
import SystemPOSIX

/// A small libcurl client for the integration tests: one easy handle per client, so consecutive
/// requests reuse the connection exactly as a real app's URL session would, and
/// `CURLINFO_NUM_CONNECTS` tells whether they did.
final class CurlClient {
    struct Response {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: [UInt8]
        /// New connections curl opened for this request (0 when it reused one).
        var connectsOpened: Int

        var text: String { String(decoding: body, as: UTF8.self) }

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let code: CURLcode
        var description: String { "curl error \(code.rawValue): " + String(cString: curl_easy_strerror(code)) }
    }

    /// HTTPS settings: the only trust anchor (verification on, host name checked), and optionally
    /// an old or weak client to be refused.
    struct TLSSettings {
        var caFile: String
        /// CURL_SSLVERSION_* numbers: 4 TLS 1.0, 5 TLS 1.1, 6 TLS 1.2, 7 TLS 1.3.
        var minVersion = 0
        var maxVersion = 0
        /// OpenSSL cipher list for TLS 1.2 and below.
        var ciphers: String?
    }

    var tls: TLSSettings?

    private static let globalInit: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()
    private let handle: UnsafeMutableRawPointer

    init() {
        Self.globalInit
        handle = curl_easy_init()
    }

    deinit { curl_easy_cleanup(handle) }

    func get(_ url: String, headers: [String] = []) throws -> Response {
        try request("GET", url, headers: headers)
    }

    /// Sends one request. `chunked` streams `body` with `Transfer-Encoding: chunked` instead of a
    /// `Content-Length`.
    func request(
        _ method: String, _ url: String, body: [UInt8]? = nil, headers: [String] = [],
        chunked: Bool = false, timeoutSeconds: Int = 10
    ) throws -> Response {
        curl_easy_reset(handle)
        let sink = Sink()
        let source = Source(body ?? [])
        let sinkPointer = Unmanaged.passUnretained(sink).toOpaque()
        let sourcePointer = Unmanaged.passUnretained(source).toOpaque()
        var list: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(list) }

        skan_curl_setopt_string(handle, CURLOPT_URL, url)
        skan_curl_setopt_long(handle, CURLOPT_TIMEOUT, timeoutSeconds)
        skan_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        if let tls {
            skan_curl_setopt_string(handle, CURLOPT_CAINFO, tls.caFile)
            skan_curl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1)
            skan_curl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2)
            if tls.minVersion != 0 || tls.maxVersion != 0 {
                skan_curl_setopt_long(handle, CURLOPT_SSLVERSION, tls.minVersion | (tls.maxVersion << 16))
            }
            if let ciphers = tls.ciphers { skan_curl_setopt_string(handle, CURLOPT_SSL_CIPHER_LIST, ciphers) }
        }
        skan_curl_setopt_callback(handle, CURLOPT_WRITEFUNCTION, Sink.writeBody)
        skan_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, sinkPointer)
        skan_curl_setopt_callback(handle, CURLOPT_HEADERFUNCTION, Sink.writeHeader)
        skan_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, sinkPointer)
        switch method {
        case "GET": skan_curl_setopt_long(handle, CURLOPT_HTTPGET, 1)
        case "HEAD": skan_curl_setopt_long(handle, CURLOPT_NOBODY, 1)
        default: skan_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method)
        }
        if let body {
            skan_curl_setopt_long(handle, CURLOPT_POST, 1)
            if method != "POST" { skan_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method) }
            skan_curl_setopt_callback(handle, CURLOPT_READFUNCTION, Source.read)
            skan_curl_setopt_pointer(handle, CURLOPT_READDATA, sourcePointer)
            if chunked {
                list = curl_slist_append(list, "Transfer-Encoding: chunked")
            } else {
                skan_curl_setopt_long(handle, CURLOPT_POSTFIELDSIZE, body.count)
            }
        }
        for header in headers { list = curl_slist_append(list, header) }
        if list != nil { skan_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, list) }

        let code = curl_easy_perform(handle)
        guard code == CURLE_OK else { throw Failure(code: code) }
        var status = 0
        var connects = 0
        skan_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        skan_curl_getinfo_long(handle, CURLINFO_NUM_CONNECTS, &connects)
        return Response(status: status, headers: sink.headers, body: sink.body, connectsOpened: connects)
    }

    private final class Sink {
        var body: [UInt8] = []
        var headers: [(name: String, value: String)] = []

        static let writeBody: skan_curl_io_callback = { data, size, count, context in
            let sink = Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue()
            let length = size * count
            data!.withMemoryRebound(to: UInt8.self, capacity: length) {
                sink.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
            }
            return length
        }

        static let writeHeader: skan_curl_io_callback = { data, size, count, context in
            let sink = Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue()
            let length = size * count
            let line = data!.withMemoryRebound(to: UInt8.self, capacity: length) {
                String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
            }
            if line.hasPrefix("HTTP/") { sink.headers.removeAll() }  // a 100 Continue came first
            if let colon = line.firstIndex(of: ":") {
                let value = line[line.index(after: colon)...].trimmingCharacters(in: " \r\n")
                sink.headers.append((String(line[..<colon]), value))
            }
            return length
        }
    }

    private final class Source {
        let bytes: [UInt8]
        var offset = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        static let read: skan_curl_io_callback = { buffer, size, count, context in
            let source = Unmanaged<Source>.fromOpaque(context!).takeUnretainedValue()
            // Small pieces, so a chunked upload really is several chunks.
            let length = min(size * count, source.bytes.count - source.offset, 700)
            source.bytes.withUnsafeBytes { bytes in
                UnsafeMutableRawPointer(buffer!).copyMemory(from: bytes.baseAddress! + source.offset, byteCount: length)
            }
            source.offset += length
            return length
        }
    }
}

extension String {
    func trimmingCharacters(in set: String) -> String {
        var slice = Substring(self)
        while let first = slice.first, set.contains(first) { slice.removeFirst() }
        while let last = slice.last, set.contains(last) { slice.removeLast() }
        return String(slice)
    }
}
