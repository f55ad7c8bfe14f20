import Foundation
import Glibc

// Start from an empty signal mask: a launcher may hand us blocked signals (Foundation's
// Process does, from a Dispatch thread), and then `l10nctl watch` would ignore Ctrl-C and
// SIGTERM forever.
var emptyMask = sigset_t()
sigemptyset(&emptyMask)
sigprocmask(SIG_SETMASK, &emptyMask, nil)

/// l10nctl's entry: picks the command, maps errors to exit codes (0, 1 failure, 2 usage).
let arguments = Array(CommandLine.arguments.dropFirst())
let standardError = FileHandle.standardError

func fail(_ message: String, code: Int32) -> Never {
    standardError.write(Data("l10nctl: error: \(message)\n".utf8))
    exit(code)
}

guard let command = arguments.first else {
    standardError.write(Data((Usage.overview + "\n").utf8))
    exit(2)
}
let rest = arguments.dropFirst()
if command == "--help" || command == "-h" || command == "help" {
    if let topic = rest.first {
        guard let text = Usage.commands[topic] else { fail("unknown command '\(topic)'", code: 2) }
        print(text)
    } else {
        print(Usage.overview)
    }
    exit(0)
}
if rest.contains("--help") || rest.contains("-h"), let text = Usage.commands[command] {
    print(text)
    exit(0)
}
do {
    switch command {
    case "get": try GetCommand.run(rest)
    case "dump": try DumpCommand.run(rest)
    case "lint": exit(try LintCommand.run(rest))
    case "coverage": try CoverageCommand.run(rest)
    case "export": try ExportCommand.run(rest)
    case "import": exit(try ImportCommand.run(rest))
    case "status": try DaemonCommands.status(rest)
    case "reload": try DaemonCommands.reload(rest)
    case "watch": try DaemonCommands.watch(rest)
    case "missing": try DaemonCommands.missing(rest)
    case "reset": try DaemonCommands.reset(rest)
    case "languages": try DaemonCommands.languages(rest)
    default: throw UsageError("unknown command '\(command)'; see 'l10nctl help'")
    }
} catch let error as UsageError {
    fail("\(error)\n(see 'l10nctl help \(command)')", code: 2)
} catch {
    fail("\(error)", code: 1)
}
