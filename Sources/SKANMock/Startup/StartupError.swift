extension SKANMockServer {
    /// Why the server could not start: the stage that failed and why, in one line that names the
    /// option or file at fault. The CLI prints it and exits with `exitStatus`.
    public struct StartupError: Error, Sendable, Equatable, CustomStringConvertible {
        /// Start-up runs in this order; the first stage that fails stops it, and nothing after it
        /// is opened. Every file is read before the log is opened, and no port is bound before.
        public enum Stage: String, Sendable, CaseIterable {
            /// Options that cannot work, alone or together: caught before any file is read.
            case configuration
            /// The model file (`--model`).
            case model
            /// The recording (`--replay`).
            case replay
            /// HTTPS: the certificate, its key, the local CA.
            case tls
            /// `--upstream`: its CA file and its client.
            case upstream
            /// The journal's file (`--log`, `--resume`).
            case journal
            /// Binding the ports.
            case listeners
        }

        public let stage: Stage
        public let reason: String

        public init(_ stage: Stage, _ reason: String) {
            self.stage = stage
            // One line, whatever the reason quotes.
            self.reason = reason.split(whereSeparator: \.isNewline).joined(separator: "; ")
        }

        /// A configuration error, for the checks that predate the stages.
        init(description: String) {
            self.init(.configuration, description)
        }

        public var description: String { reason }

        /// 64 (a usage error, as `sysexits.h` has it) for a configuration that cannot work; 2 for
        /// a file, a certificate or a port that failed.
        public var exitStatus: Int32 { stage == .configuration ? 64 : 2 }
    }
}
