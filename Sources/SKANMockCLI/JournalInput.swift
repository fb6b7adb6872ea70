import ArgumentParser
import SKANDomain
import SKANFiles

/// The journal file `report`, `compare` and `record` read, through one reader: a file that cannot
/// be read, or a line that cannot be used, ends the command with its reason on standard error and
/// exit status 2, worded alike in all three. Each reads one tenant's lines (`--tenant NAME`; the
/// default tenant's without it) and says on standard error how many of other tenants it passed over;
/// a `--tenant` no line names ends it with status 2 and the tenants the file does have.
enum JournalInput {
    /// Ends the command when `tenant` was asked for and the whole file was read without a line
    /// naming it: a misspelt name would read as a tenant that sent nothing (a green CI step).
    private static func refuseAbsentTenant(
        _ tenant: String?, _ reader: JournalFileReader<JournalFile>, _ path: String, _ command: String
    ) throws {
        guard let tenant, reader.reachedEnd, reader.tenantLines == 0 else { return }
        StandardStreams.error(
            "skan-mock \(command): no line of \(path) names tenant \(tenant); \(tenantsFound(reader))")
        throw ExitCode(2)
    }

    /// `the file has tenants a, b and the default tenant (no --tenant)`, or that it has none.
    static func tenantsFound(_ reader: JournalFileReader<JournalFile>) -> String {
        guard !reader.otherTenants.isEmpty else { return "the file has no entry of any tenant" }
        let names = reader.otherTenants.compactMap { $0 }
        var parts: [String] = []
        if !names.isEmpty {
            parts.append(
                (names.count == 1 ? "tenant " : "tenants ") + names.joined(separator: ", ")
                    + (reader.moreOtherTenants ? " and more" : ""))
        }
        if reader.otherTenants.contains(nil) { parts.append("the default tenant (no --tenant)") }
        return "the file has " + parts.joined(separator: " and ")
    }

    static func read<Result>(
        _ path: String, for command: String, tenant: String? = nil,
        _ body: (inout JournalFileReader<JournalFile>) throws -> Result
    ) throws -> Result {
        if let tenant, !TenantName.isValid(tenant.utf8) {
            StandardStreams.error("skan-mock \(command): --tenant \(tenant): \(TenantName.rule)")
            throw ExitCode(2)
        }
        do {
            var reader = try JournalFile.reader(path)
            reader.tenant = .only(tenant)
            let result: Result
            do {
                result = try body(&reader)
            } catch {
                // `record` refuses a journal with nothing to record, which a misspelt name makes too.
                try refuseAbsentTenant(tenant, reader, path, command)
                throw error
            }
            try refuseAbsentTenant(tenant, reader, path, command)
            if reader.otherTenantLines > 0 {
                StandardStreams.error(
                    "skan-mock \(command): \(reader.otherTenantLines) lines of other tenants passed over (--tenant NAME reads a tenant's; without it, the default tenant's)"
                )
            }
            return result
        } catch let error as FileBytes.Failure {
            StandardStreams.error("skan-mock \(command): cannot read journal \(error.description)")
            throw ExitCode(2)
        } catch let error as JournalReadError {
            StandardStreams.error("skan-mock \(command): \(error.description)")
            throw ExitCode(2)
        } catch let error as ReplayFileError {
            StandardStreams.error("skan-mock \(command): \(error.description)")
            throw ExitCode(2)
        }
    }
}
