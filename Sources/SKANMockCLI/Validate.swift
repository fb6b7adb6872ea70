import ArgumentParser
import SKANMock

/// `skan-mock validate FILE`: checks a model file as the server would load it.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a conversion model file and say what is wrong with it.",
        discussion: "Exits 0 when the file loads, 2 with one line per problem (file, JSON path, reason) when not."
    )

    @Argument(help: ArgumentHelp("The model file to check.", valueName: "file"))
    var file: String

    func run() throws {
        switch SKANMockServer.checkModel(file) {
        case .success(let name):
            StandardStreams.output("\(file): ok (model \"\(name)\")")
        case .failure(let failure):
            for line in failure.lines { StandardStreams.error(line) }
            throw ExitCode(2)
        }
    }
}
