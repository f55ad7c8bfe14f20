/// The built `l10nctl`, run as the end-to-end suites run it: a plain `PATH` (so only the
/// system's tools are found), two minutes at most. One place for what every interchange and
/// lint suite repeated.
public enum L10nctl {
    /// Runs `l10nctl ARGUMENTS…` and waits for it.
    public static func run(_ arguments: String...) throws -> ProcessOutput {
        try run(arguments: arguments)
    }

    /// Runs `l10nctl` with `arguments` and waits for it.
    public static func run(arguments: [String]) throws -> ProcessOutput {
        try ProcessRunner.run(
            PackagePaths.executable("l10nctl"), arguments, environment: ["PATH": "/usr/bin:/bin"], timeout: 120)
    }
}
