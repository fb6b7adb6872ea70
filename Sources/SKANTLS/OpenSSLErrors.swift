#if SKAN_MOCK_TLS
    import COpenSSL

    /// OpenSSL reports failures on a per-thread error queue: every call site empties it before a call
    /// and reads it after, so a message never describes an older failure.
    enum OpenSSLErrors {
        static func clear() { ERR_clear_error() }

        /// The queued errors as one line (empty queue: the fallback), and the queue emptied.
        static func drain(or fallback: String) -> String {
            var messages: [String] = []
            while true {
                let code = ERR_get_error()
                if code == 0 { break }
                var buffer = [CChar](repeating: 0, count: 256)
                ERR_error_string_n(code, &buffer, buffer.count)
                let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                // "error:0A000102:SSL routines::unsupported protocol" -> "unsupported protocol"
                messages.append(
                    String(text.split(separator: ":", omittingEmptySubsequences: false).last ?? Substring(text)))
            }
            return messages.isEmpty ? fallback : messages.joined(separator: "; ")
        }
    }
#endif
