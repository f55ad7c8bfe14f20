import CommandLineHelp
import Foundation
import LocalizationCore
import LocalizationWire

/// `l10nctl report --html FILE [DIR…]`: one self-contained page for a project lead
/// (docs/REPORT.md). Without directories, the running daemon's resource roots.
enum ReportCommand {
    static func run(_ invocation: Invocation) throws {
        guard let output = invocation.arguments.value("html") else { throw UsageError("report needs --html FILE") }
        let development: LanguageTag
        do { development = try LanguageTag(invocation.developmentLanguage) } catch { throw UsageError("\(error)") }
        var roots = invocation.paths
        if roots.isEmpty {
            let status = try DaemonCommands.fields(.status, on: try DaemonCommands.connect(invocation))
            roots = status["roots"]?.arrayValue?.compactMap(\.stringValue) ?? []
            guard !roots.isEmpty else { throw UsageError("report takes resource directories, or a daemon's") }
        }
        for root in roots where !FileManager.default.fileExists(atPath: root) {
            throw CommandFailure("\(root): no such directory")
        }
        let report = try ResourceReport.gather(
            roots: roots, developmentLanguage: development, socket: invocation.socket, timeout: invocation.timeout)
        try write(HTMLReport.render(report), to: output)
        // Counted by severity as the page and `lint` count them: a note is not a warning.
        let errors = report.findings.count { $0.severity == .error }
        let warnings = report.findings.count { $0.severity == .warning }
        let notes = report.findings.count { $0.severity == .note }
        print(
            "\(output): \(report.coverage.languages.count) languages, \(errors) lint errors, "
                + "\(warnings) warnings, \(notes) notes")
    }

    /// Writes the page, or fails in l10nctl's words: the path and the reason (a directory
    /// that does not exist, a path that is a directory, the system's reason), not
    /// Foundation's "The file … couldn't be saved in the folder …".
    static func write(_ page: String, to path: String) throws {
        let parent = (path as NSString).deletingLastPathComponent
        let directory = parent.isEmpty ? "." : parent
        func failure(_ reason: String) -> CommandFailure {
            CommandFailure("cannot write the report to \(path): \(reason)")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw failure("the directory \(directory) does not exist")
        }
        guard isDirectory.boolValue else { throw failure("\(directory) is not a directory") }
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw failure("it is a directory (give --html a file name)")
        }
        do { try Data(page.utf8).write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
            let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            let code = underlying?.domain == NSPOSIXErrorDomain ? Int32(underlying?.code ?? 0) : 0
            throw failure(code != 0 ? String(cString: strerror(code)) : "it could not be written")
        }
    }
}
