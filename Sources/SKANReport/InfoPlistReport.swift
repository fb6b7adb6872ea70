import SKANDomain

/// What `skan-mock check Info.plist` prints: the attribution keys found, each finding with its
/// key path, what to write instead and Apple's page, and where the postback copies will be posted;
/// as text, JSON, or JUnit XML (a testcase per group of keys, a failure per error, the notes and
/// destinations in `<system-out>`, as `JUnitReport` writes a journal's). Pure.
public struct InfoPlistReport: Sendable {
    /// The file as the user named it (`Foo.app/Info.plist` for a bundle).
    public var file: String
    public var format: PropertyList.Format
    public var check: InfoPlistCheck

    public init(file: String, format: PropertyList.Format, check: InfoPlistCheck) {
        self.file = file
        self.format = format
        self.check = check
    }

    /// Whether CI should fail: a finding of severity error (notes never fail).
    public var hasProblems: Bool { check.errorCount > 0 }

    private var formatName: String { format == .binary ? "binary property list" : "XML property list" }

    /// `error  SKAdNetworkItems[2].SKAdNetworkIdentifier: ... → write: ... (https://...)`
    static func line(_ f: InfoPlistFinding) -> String {
        let severity = f.severity == .error ? "error" : "note "
        let place = f.keyPath.isEmpty ? "" : "\(f.keyPath): "
        return "  \(severity) \(place)\(f.message) [\(f.code)]"
            + (f.fix.map { "\n         write instead: \($0)" } ?? "") + "\n         see \(f.reference)"
    }

    public var text: String {
        let notes = check.findings.count - check.errorCount
        var lines = [
            "\(file): \(formatName), "
                + (check.keys.isEmpty
                    ? "no attribution keys" : "attribution keys: " + check.keys.joined(separator: ", "))
        ]
        lines += check.findings.map(Self.line)
        if !check.copies.isEmpty {
            lines.append("postback copies will be posted to:")
            lines += check.copies.map { "  \($0.what) (\($0.keyPath)): POST \($0.url)" }
        }
        lines.append(
            "findings: \(check.errorCount) \(check.errorCount == 1 ? "error" : "errors"), \(notes) \(notes == 1 ? "note" : "notes")"
        )
        return lines.joined(separator: "\n")
    }

    public var json: JSONValue {
        .object([
            JSONMember("file", .string(file)),
            JSONMember("format", .string(format == .binary ? "binary" : "xml")),
            JSONMember("keys", .array(check.keys.map { .string($0) })),
            JSONMember("errors", .int(Int64(check.errorCount))),
            JSONMember(
                "findings",
                .array(
                    check.findings.map { f in
                        .object([
                            JSONMember("severity", .string(f.severity.rawValue)),
                            JSONMember("rule", .string(f.rule.rawValue)),
                            JSONMember("code", .string(f.code)),
                            JSONMember("key_path", .string(f.keyPath)),
                            JSONMember("message", .string(f.message)),
                            JSONMember("fix", f.fix.map { .string($0) } ?? .null),
                            JSONMember("reference", .string(f.reference))
                        ])
                    })),
            JSONMember(
                "copies",
                .array(
                    check.copies.map {
                        ["key_path": .string($0.keyPath), "what": .string($0.what), "url": .string($0.url)]
                    }))
        ])
    }

    /// A testcase per group of keys (all of them, so a passing group shows as passed), a failure
    /// per error finding; notes and where copies go in the testcase's `<system-out>`.
    public func junit(suiteName: String) -> String {
        let escape = JUnitReport.escape
        let rules = InfoPlistRule.allCases.filter {
            $0 != .file || check.findings.contains { f in f.rule == .file && f.severity == .error }
        }
        let failures = rules.filter { rule in check.findings.contains { $0.rule == rule && $0.severity == .error } }
            .count
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"\(escape(suiteName))\" tests=\"\(rules.count)\" failures=\"\(failures)\">\n"
        out +=
            "  <testsuite name=\"\(escape(suiteName))\" tests=\"\(rules.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\">\n"
        for rule in rules {
            let findings = check.findings.filter { $0.rule == rule }
            let copies = check.copies.filter { copy in
                rule == .reportEndpoint
                    ? copy.keyPath == "NSAdvertisingAttributionReportEndpoint"
                    : rule == .copyEndpoint && copy.keyPath != "NSAdvertisingAttributionReportEndpoint"
            }
            out += "    <testcase classname=\"\(escape(suiteName)).info_plist\" name=\"\(escape(rule.rawValue))\""
            guard !findings.isEmpty || !copies.isEmpty else {
                out += "/>\n"
                continue
            }
            out += ">\n"
            for f in findings where f.severity == .error {
                let message = (f.keyPath.isEmpty ? "" : "\(f.keyPath): ") + f.message
                out += "      <failure type=\"\(escape(f.code))\" message=\"\(escape(message))\">"
                out += escape(message + (f.fix.map { "\nwrite instead: \($0)" } ?? "") + "\nsee \(f.reference)")
                out += "</failure>\n"
            }
            let notes =
                findings.filter { $0.severity == .note }.map { Self.line($0).trimmingPrefixSpaces }
                + copies.map { "\($0.what): POST \($0.url)" }
            if !notes.isEmpty {
                out += "      <system-out>\(escape(notes.joined(separator: "\n")))</system-out>\n"
            }
            out += "    </testcase>\n"
        }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }
}

extension String {
    fileprivate var trimmingPrefixSpaces: String { String(drop { $0 == " " }) }
}
