import SKANDomain

/// A conversion model file (`--model`), read and parsed: the model, or every problem, each naming
/// the file, the JSON path and the reason. The one reader of model files, for the server, its
/// reloads, `validate` and `report --model`.
public enum ModelFile {
    public static func read(_ path: String) -> Result<ConversionModel, ModelCheckFailure> {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path)
        } catch {
            let line = "cannot read model \(error.description)"
            return .failure(ModelCheckFailure(summary: line, lines: [line], couldNotRead: true))
        }
        do {
            return .success(try ConversionModel.parse(bytes: bytes, source: path))
        } catch {
            return .failure(
                ModelCheckFailure(
                    summary: error.description, lines: error.problems.map { "\(path): \($0.path): \($0.reason)" }
                ))
        }
    }
}
