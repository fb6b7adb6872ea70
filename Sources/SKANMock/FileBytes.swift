import SystemPOSIX


/// Reads whole files (model files are small) without pulling Foundation into the server.
enum FileBytes {
    struct Failure: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "\(path): \(reason)" }
    }

    static func read(_ path: String) throws(Failure) -> [UInt8] {
        do {
            return try System.readFile(path)
        } catch {
            throw Failure(path: path, reason: error.reason)
        }
    }
}
