/// What `l10nd` was asked to do by its command line.
package enum DaemonInvocation: Sendable, Hashable {
    /// Run the daemon with this configuration.
    case run(DaemonConfiguration)
    /// Check this configuration and the resources it names, report, and exit
    /// (`--check-config`): 0 when all is well, 1 for a warning or an error.
    case check(DaemonConfiguration)
    /// Print this usage text to stdout and exit 0.
    case help(String)
    /// Print this version line to stdout and exit 0.
    case version(String)
    /// Print this manual page (roff) to stdout and exit 0.
    case manual(String)
}
