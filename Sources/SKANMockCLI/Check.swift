import ArgumentParser
import SKANDomain
import SKANFiles
import SKANMock
import SKANReport

/// `skan-mock check CAPTURE.har`: a release build talks to Singular's production, not to
/// skan-mock, so its traffic is checked from a capture (Proxyman, Charles, mitmproxy, a browser's
/// HAR export) with the same validation, device state and postback prediction as a live run.
/// `skan-mock check Info.plist` (or `Foo.app`): the build's attribution keys, checked against
/// Apple's documentation before it ships (`InfoPlistCheck`); which one is told by content.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Check a HAR capture of an app's traffic to Singular (a release build's) as skan-mock checks a live run, or an app's Info.plist attribution keys.",
        discussion: """
            Reads a HAR 1.2 file as a stream, picks out the requests to Singular's conversion-value and \
            S2S paths on any host (and --route aliases), validates each as the server does, adopts \
            Singular's answers into each device's state in the capture's time order, and prints per \
            device its windows, values, findings (#N is the entry's place in the file, from 1) and \
            the postbacks Apple would send. Other entries are counted and left alone; an entry that \
            cannot be read is named with its index and URL, and the rest are still read. \
            Exits 0, or 1 with --fail-on-findings when there is a finding or an unreadable entry, \
            2 when the file cannot be read at all or the JUnit file cannot be written.

            Given an Info.plist (XML or binary), or an app bundle (Foo.app, whose Info.plist is \
            read), it checks the attribution keys against Apple's documentation: SKAdNetworkItems, \
            NSAdvertisingAttributionReportEndpoint, AdAttributionKit's AttributionCopyEndpoint and \
            opt-ins, and AdAttributionKitConfigurations' windows and cooldowns. Each finding names \
            its key path, what to write instead and Apple's page; the report says where the \
            postback copies will be posted. --fail-on-findings exits 1 on any error (notes never \
            fail); --model and --route are for captures only.
            """
    )

    @Argument(
        help: ArgumentHelp(
            "The capture, a HAR 1.2 file (JSON); or an Info.plist (XML or binary), or an app bundle (Foo.app).",
            valueName: "capture.har|Info.plist"))
    var capture: String

    @Option(
        help: ArgumentHelp(
            "Also write JUnit XML here: a testcase per device, a failure per finding, one for unreadable entries.",
            valueName: "file"))
    var junit: String?

    @Flag(help: "Print the result as JSON.")
    var json = false

    @Flag(help: "Exit 1 when there is any finding, unreadable entry, or (with --model) answer that differs.")
    var failOnFindings = false

    @Option(
        help: ArgumentHelp(
            "The team's conversion model: compare Singular's answers with it, as compare does.", valueName: "file"))
    var model: String?

    @Option(
        name: .customLong("route"),
        help: ArgumentHelp(
            "One more path that is a Singular endpoint, as serve's --route (PATH=ENDPOINT[?NAME=VALUE...]).",
            valueName: "path=endpoint"))
    var routes: [String] = []

    func run() throws {
        if let plist = try InfoPlistInput.plistPath(capture) {
            try checkInfoPlist(plist)
            return
        }
        let aliases = try CaptureInput.aliases(routes)
        var loaded: ConversionModel?
        if let model {
            switch ModelFile.read(model) {
            case .success(let read): loaded = read
            case .failure(let failure):
                StandardStreams.error("skan-mock check: \(failure.summary)")
                throw ExitCode(2)
            }
        }
        let judge = CaptureJudge(aliases: aliases, model: loaded)
        let (report, _) = try CaptureInput.read(capture, for: "check") { reader throws(JournalReadError) in
            (
                try CaptureReport.read(
                    &reader, model: loaded, compared: loaded != nil, isSingular: judge.isSingular, judge: judge.judge),
                ()
            )
        }
        try finish(
            text: json ? report.json.description : report.text, junit: { report.junit(suiteName: $0) },
            hasProblems: report.hasProblems)
    }

    /// `check Info.plist`: the report on standard output, JUnit when asked, exit 1 on an error finding.
    private func checkInfoPlist(_ path: String) throws {
        if model != nil || !routes.isEmpty {
            throw ValidationError("--model and --route are for a HAR capture, not an Info.plist")
        }
        let report = try InfoPlistInput.report(path)
        try finish(
            text: json ? report.json.description : report.text, junit: { report.junit(suiteName: $0) },
            hasProblems: report.hasProblems)
    }

    /// Either report's end: on standard output, as JUnit when asked, exit 1 on a problem with
    /// `--fail-on-findings`.
    private func finish(text: String, junit makeJUnit: (String) -> String, hasProblems: Bool) throws {
        StandardStreams.output(text)
        if let junit {
            do {
                try FileBytes.write(Array(makeJUnit("skan-mock.check").utf8), to: junit)
            } catch {
                StandardStreams.error("skan-mock check: cannot write JUnit report \(error.description)")
                throw ExitCode(2)
            }
        }
        if failOnFindings && hasProblems { throw ExitCode(1) }
    }
}
