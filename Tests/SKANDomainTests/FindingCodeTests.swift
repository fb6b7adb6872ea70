import Foundation
import Testing

@testable import SKANDomain

/// Finding codes are their spellings: every one declared is listed, reads back as itself from the
/// journal, and one this version does not know (a newer version's) is kept as written.
@Suite struct FindingCodeTests {
    /// The codes as `FindingCode.swift` declares them (`public static let NAME = FindingCode("...")`),
    /// in order: what `allCases` must list.
    private func declared() throws -> [String] {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/SKANDomain/Conversion/FindingCode.swift")
        let text = try String(contentsOf: source, encoding: .utf8)
        let prefix = "    public static let "
        return text.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix(prefix), line.contains(" = FindingCode(\""), line.hasSuffix("\")") else { return nil }
            return line.split(separator: "\"").dropFirst().first.map(String.init)
        }
    }

    @Test func everyDeclaredCodeIsListedOnce() throws {
        let spellings = try declared()
        #expect(spellings.count == 42)
        #expect(FindingCode.allCases.map(\.rawValue) == spellings)
        #expect(Set(spellings).count == spellings.count)
        let allKnown = FindingCode.allCases.allSatisfy { $0.isKnown }
        #expect(allKnown)
    }

    /// Each code, written into a journal line as the server writes findings and read back as
    /// `--resume`, `report` and `compare` read it: the same code, spelled the same.
    @Test func everyCodeRoundTripsThroughTheJournal() throws {
        for code in FindingCode.allCases {
            #expect(FindingCode(rawValue: code.rawValue) == code)
            let finding = ValidationFinding(param: "p", code: code, message: "m")
            var line = Array(#"{"id":1,"endpoint":"skan4","device":"D","issues":["#.utf8)
            line += JSONWriter.serialize(finding.json)
            line += Array("]}".utf8)
            let issues = try JournalRecord(line: line).issues
            #expect(issues.map(\.code) == [code])
            #expect(issues.first?.code.rawValue == code.rawValue)
        }
    }

    /// The spellings are the journal's, byte for byte: files written by earlier versions still read.
    @Test func theSpellingsAreTheJournals() {
        #expect(FindingCode.missingParameter.rawValue == "missing_parameter")
        #expect(FindingCode.skan3ValueDecreased.rawValue == "skan3_value_decreased")
        #expect(FindingCode.timestampBefore2014.rawValue == "timestamp_before_2014")
        #expect(FindingCode.fineValueChangedAfterP0.rawValue == "fine_value_changed_after_p0")
        #expect(FindingCode.postbackSignatureInvalid.rawValue == "postback_signature_invalid")
        #expect(FindingCode.upstreamSkipped.description == "upstream_skipped")
    }

    @Test func aCodeThisVersionDoesNotKnowIsKeptAsWritten() {
        let newer = FindingCode(rawValue: "from_a_newer_version")
        #expect(newer.rawValue == "from_a_newer_version" && !newer.isKnown)
        #expect(!FindingCode.allCases.contains(newer))
        #expect(newer != .missingParameter)
    }
}
