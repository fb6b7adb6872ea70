import ArgumentParser
import SKANFiles
import SKANMock

/// `skan-mock validate FILE...`: checks model files as the server would load them.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check conversion model files and say what is wrong with them.",
        discussion:
            "One line per file that loads, one line per problem (file, JSON path, reason) of one that does not. A JSON Schema or a simulate scenario (as in config/) is said to be one and skipped. Exits 0 when every model loads, 2 when any does not."
    )

    @Argument(help: ArgumentHelp("The model files to check.", valueName: "file"))
    var files: [String]

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one model file") }
    }

    func run() throws {
        var failed = false
        for file in files {
            if let note = ConfigFileKind.of(path: file).skipNote {
                StandardStreams.output("\(file): \(note)")
                continue
            }
            switch SKANMockServer.checkModel(file) {
            case .success(let name):
                StandardStreams.output("\(file): ok (model \"\(name)\")")
            case .failure(let failure):
                failed = true
                for line in failure.lines { StandardStreams.error(line) }
            }
        }
        if failed { throw ExitCode(2) }
    }
}
