import SKANDomain
import SKANFiles

/// The first stage of start-up after the checks: every file read and checked (the model,
/// `--replay`, HTTPS's certificate and CA, `--upstream-ca`) before any is written, so that a bad
/// one leaves the log as it was. Nothing here runs: the next stage (`RunningParts`) starts parts.
struct StartupFiles: Sendable {
    typealias StartupError = SKANMockServer.StartupError

    let model: ConversionModel
    let replay: Replay?
    let https: HTTPSService?

    init(_ options: CheckedOptions) throws(StartupError) {
        switch options.modelPath.map(SKANMockServer.readModel) ?? .success(.builtIn) {
        case .success(let loaded): model = loaded
        case .failure(let failure):
            // "--model FILE: $.path: reason", unless the summary already says it is the model.
            throw StartupError(.model, failure.couldNotRead ? failure.summary : "--model \(failure.summary)")
        }
        replay = try options.replayPath.map { path throws(StartupError) in try SKANMockServer.loadReplay(path) }
        do {
            https = try options.https.map { options throws(HTTPSService.SetupError) in try HTTPSService(options) }
        } catch {
            throw StartupError(.tls, "cannot serve HTTPS: \(error.description)")
        }
        if let upstreamOptions = options.upstream { try SKANMockServer.checkUpstreamFiles(upstreamOptions) }
    }
}
