import CommandLineHelp
import Foundation
import Glibc

// Start from an empty signal mask: a launcher may hand us blocked signals (Foundation's
// Process does, from a Dispatch thread), and then `l10nctl watch` would ignore Ctrl-C and
// SIGTERM forever.
var emptyMask = sigset_t()
sigemptyset(&emptyMask)
sigprocmask(SIG_SETMASK, &emptyMask, nil)

/// l10nctl's entry: picks the command, maps errors to exit codes (0, 1 failure, 2 usage).
func fail(_ message: String, code: Int32) -> Never {
    FileHandle.standardError.write(Data("l10nctl: error: \(message)\n".utf8))
    exit(code)
}

let globals: GlobalOptions
do { globals = try GlobalOptions(Array(CommandLine.arguments.dropFirst())) } catch {
    fail("\(error) (see 'l10nctl help')", code: 2)
}
if globals.version {
    print("l10nctl \(ProductVersion.string)")
    exit(0)
}
guard let name = globals.command else {
    if globals.help {
        print(L10nctlHelp.overview.text)
        exit(0)
    }
    FileHandle.standardError.write(Data((L10nctlHelp.overview.text + "\n").utf8))
    exit(2)
}
guard let command = CommandCatalog.command(name) else { fail("\(CommandCatalog.unknown(name))", code: 2) }
if globals.help {
    print(L10nctlHelp.text(of: command))
    exit(0)
}
do {
    let invocation = try Invocation(command, globals)
    switch command.name {
    case "get": try GetCommand.run(invocation)
    case "dump": try DumpCommand.run(invocation)
    case "lint": exit(try LintCommand.run(invocation))
    case "coverage": exit(try CoverageCommand.run(invocation))
    case "report": try ReportCommand.run(invocation)
    case "export": try ExportCommand.run(invocation)
    case "import": exit(try ImportCommand.run(invocation))
    case "status": try DaemonCommands.status(invocation)
    case "reload": try DaemonCommands.reload(invocation)
    case "watch": try WatchCommand.run(invocation)
    case "missing": try DaemonCommands.missing(invocation)
    case "reset": try DaemonCommands.reset(invocation)
    case "metrics": try MetricsCommand.run(invocation)
    case "languages": try DaemonCommands.languages(invocation)
    case "socket-path": DaemonCommands.socketPath(invocation)
    default: try HelpCommand.run(invocation)
    }
} catch let error as UsageError {
    let hint = error.description.contains("'l10nctl help") ? "" : "\n(see 'l10nctl help \(command.name)')"
    fail("\(error)\(hint)", code: 2)
} catch {
    fail("\(error)", code: 1)
}
