/// `--https-port` and its company: where HTTPS listens and which certificate it shows.
public struct HTTPSOptions: Sendable, Equatable {
    /// 0 picks a free port.
    public var port: Int
    /// The user's own certificate chain and key (PEM); both or neither. Without them a local CA in
    /// `stateDirectory` issues the server certificate.
    public var certificateFile: String?
    public var keyFile: String?
    /// More names and addresses for the server certificate (`--tls-name`).
    public var extraNames: [String]
    /// Where the local CA lives (`--state-dir`, default `~/.skan-mock`); created only when used.
    public var stateDirectory: String

    public init(
        port: Int, certificateFile: String? = nil, keyFile: String? = nil, extraNames: [String] = [],
        stateDirectory: String
    ) {
        self.port = port
        self.certificateFile = certificateFile
        self.keyFile = keyFile
        self.extraNames = extraNames
        self.stateDirectory = stateDirectory
    }
}
