/// A `JournalReport` as JUnit XML, so Jenkins, GitLab and GitHub Actions show SKAN mistakes as
/// failed tests: every device is a testcase, every finding a `<failure>`; a device with postbacks
/// has a second testcase that lists them (in `<system-out>`) and fails for a value the model never
/// gives; every received postback is a testcase (`ReceivedPostbackCheck`), failed when it differs
/// from the prediction or its signature does not verify, skipped when no device was named to
/// compare it with; lines of the journal that could not be read fail a testcase of their own.
public enum JUnitReport {
    public static func xml(_ report: JournalReport, suiteName: String = "skan-mock") -> String {
        xml(
            report, suiteName: suiteName,
            unreadableInput: (
                "journal", "journal lines", "unreadable_line",
                report.unreadableLines.map { "line \($0.line): \($0.reason)" }
            ))
    }

    /// The same, with the input that could not be read named by the caller (`skan-mock check`'s
    /// capture entries): one testcase, a failure per message, when there are any.
    public static func xml(
        _ report: JournalReport, suiteName: String,
        unreadableInput: (classname: String, name: String, type: String, messages: [String])
    ) -> String {
        let unreadable = unreadableInput.messages.isEmpty ? 0 : 1
        let withPostbacks = report.devices.compactMap(\.postbacks)
        let received = report.receivedPostbacks
        let tests = report.devices.count + withPostbacks.count + received.count + unreadable
        let failures =
            report.devices.filter { !$0.findings.isEmpty }.count
            + withPostbacks.filter { !$0.findings.isEmpty }.count + report.receivedFailureCount + unreadable
        let skipped = received.filter { $0.skipped != nil }.count
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"\(escape(suiteName))\" tests=\"\(tests)\" failures=\"\(failures)\">\n"
        out +=
            "  <testsuite name=\"\(escape(suiteName))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\">\n"
        for device in report.devices {
            out += "    <testcase classname=\"\(escape(suiteName)).devices\" name=\"\(escape(device.device))\""
            guard !device.findings.isEmpty else {
                out += "/>\n"
                continue
            }
            out += ">\n"
            for f in device.findings {
                let message = (f.param.map { "\($0): " } ?? "") + f.message
                out += "      <failure type=\"\(escape(f.code))\" message=\"\(escape(message))\">"
                out += escape(
                    "\(f.code): \(message)\nrequest #\(f.requestId.map(String.init) ?? "?") \(f.method) \(f.path)\ndevice \(device.device)"
                )
                out += "</failure>\n"
            }
            out += "    </testcase>\n"
        }
        for postbacks in withPostbacks {
            out += "    <testcase classname=\"\(escape(suiteName)).postbacks\" name=\"\(escape(postbacks.device))\">\n"
            for f in postbacks.findings {
                out += "      <failure type=\"\(escape(f.code.rawValue))\" message=\"\(escape(f.message))\"/>\n"
            }
            out += "      <system-out>\(escape(postbacks.lines.joined(separator: "\n")))</system-out>\n"
            out += "    </testcase>\n"
        }
        for check in received {
            let p = check.entry.postback
            let name = "#\(check.entry.id) \(p.framework.rawValue) \(check.comparison.window) \(p.transactionID)"
            out += "    <testcase classname=\"\(escape(suiteName)).received\" name=\"\(escape(name))\">\n"
            if let failure = check.failure {
                out += "      <failure type=\"\(escape(failure.type))\" message=\"\(escape(failure.message))\"/>\n"
            } else if let skipped = check.skipped {
                out += "      <skipped message=\"\(escape(skipped))\"/>\n"
            }
            out += "      <system-out>\(escape(check.line))</system-out>\n"
            out += "    </testcase>\n"
        }
        if unreadable > 0 {
            out +=
                "    <testcase classname=\"\(escape(suiteName)).\(escape(unreadableInput.classname))\" name=\"\(escape(unreadableInput.name))\">\n"
            for message in unreadableInput.messages {
                out +=
                    "      <failure type=\"\(escape(unreadableInput.type))\" message=\"\(escape(message))\"/>\n"
            }
            out += "    </testcase>\n"
        }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }

    /// Text safe in XML 1.0 content and attribute values: markup characters as entities, line
    /// breaks and tabs as character references (attributes would otherwise fold them to spaces),
    /// and the control characters XML 1.0 forbids even as references shown as `\u{1}`-style text.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            default:
                let v = scalar.value
                if v < 0x20 || v == 0xFFFE || v == 0xFFFF || (0x7F...0x84).contains(v) || (0x86...0x9F).contains(v) {
                    out += "\\u{\(String(v, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
