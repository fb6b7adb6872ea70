import SKANDomain

/// Why a scenario file cannot be run: the file, where in it (a JSON path such as
/// `$.steps[3].revenue.amount`, or a line and column for bad JSON), and what is wrong.
public typealias ScenarioError = DocumentError
