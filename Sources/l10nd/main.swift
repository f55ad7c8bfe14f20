import Foundation
import Glibc
import LocalizationDaemon
import LocalizationSockets

// l10nd: parse the command line and configuration, start the daemon, run the main queue.
// Exit codes: 0 after a clean stop, 1 when start-up fails, 2 for a bad command line or config.

// Before any thread allocates: what RLIMIT_DATA counts stays near what is in use.
HeapTrim.boundGrowth()

// A reader of stderr that goes away (journald restarting) must cost a log line, not the
// process: every write reports EPIPE instead of raising SIGPIPE.
signal(SIGPIPE, SIG_IGN)

// Start from an empty signal mask, whatever the launcher left blocked: SIGTERM and SIGHUP
// must reach the daemon's handlers.
var emptyMask = sigset_t()
sigemptyset(&emptyMask)
sigprocmask(SIG_SETMASK, &emptyMask, nil)

// libinotifytools uses select(): its descriptor must be opened before anything else can
// push descriptor numbers past 1024.
do { try InotifyEventSource.prepare() } catch {
    StandardErrorStream.write("l10nd: error: cannot start inotify: \(error)\n")
    exit(1)
}

// Every client takes a descriptor: raise the soft limit to the hard one, and refuse a limit
// too low to run at all.
do { try DescriptorLimit.raise() } catch {
    StandardErrorStream.write("l10nd: error: \(error)\n")
    exit(1)
}

let source = ConfigurationSource(arguments: Array(CommandLine.arguments.dropFirst()))
let configuration: DaemonConfiguration
do {
    switch try DaemonConfiguration.load(arguments: source.arguments, currentDirectory: source.currentDirectory) {
    case .help(let text):
        print(text)
        exit(0)
    case .version(let text):
        print(text)
        exit(0)
    case .manual(let roff):
        print(roff, terminator: "")
        exit(0)
    case .run(let loaded):
        configuration = loaded
    case .check(let loaded):
        exit(ConfigurationCheck(configuration: loaded, file: source.file).run())
    }
} catch {
    // As l10nctl does: a bad command line names where the right one is described.
    let hint = error.code == .usage ? "\n(see 'l10nd --help', or l10nd(8))" : ""
    // One line per error: a file is read to its end and says every mistake in it.
    StandardErrorStream.write(error.lines.map { "l10nd: error: \($0)" }.joined(separator: "\n") + "\(hint)\n")
    exit(error.exitCode)
}

let logger = DaemonLogger(level: configuration.logLevel)
// Top-level, so the daemon lives as long as the process does.
let daemon: Daemon
do {
    daemon = try Daemon(configuration: configuration, logger: logger, source: source)
    try daemon.start { status in exit(status) }
} catch let error as ConfigurationError {
    logger.error("\(error)")
    exit(error.exitCode)
} catch {
    logger.error(
        "cannot start: \(error)" + SocketDirectoryAdvice.advice(for: error, socketPath: configuration.socketPath))
    exit(1)
}
dispatchMain()
