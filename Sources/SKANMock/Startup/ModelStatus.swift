import SystemPOSIX

/// The outcome of the last model reload, for `/__admin/health`: a bad file keeps the old model, and
/// the reason stays visible here until a good file comes.
final class ModelStatus: Sendable {
    private let lastError = Mutex<String?>(nil)

    var reloadError: String? { lastError.withLock { $0 } }

    func succeeded() { lastError.withLock { $0 = nil } }

    func failed(_ reason: String) { lastError.withLock { $0 = reason } }
}
