import ArgumentParser
import SKANDomain
import SKANFiles

/// The journal file `report`, `compare` and `record` read, through one reader: a file that cannot
/// be read, or a line that cannot be used, ends the command with its reason on standard error and
/// exit status 2, worded alike in all three. Each reads one tenant's lines (`--tenant NAME`; the
/// default tenant's without it) and says on standard error how many of other tenants it passed over.
enum JournalInput {
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
            let result = try body(&reader)
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
