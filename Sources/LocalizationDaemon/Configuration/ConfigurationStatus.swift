package import LocalizationWire

/// What became of the configuration since start: the `configuration` object of `status`.
package struct ConfigurationStatus: Sendable, Hashable {
    /// The file read at start and at each reload (`file`); nil when started without `--config`.
    var file: String?
    /// Reloads that read the configuration and put it in effect (`reloads`).
    var reloads = 0
    /// Why the last reload did not put the configuration in effect, the running one kept
    /// (`last_error`); nil once a reload reads one it can use.
    var lastError: String?
    /// Values read that wait for a restart (`restart_needed`), the running ones kept.
    var waitingForRestart: [ConfigurationChange.Difference] = []
    /// The warnings logged last (``DevelopmentLanguageCheck``), to log each set once.
    var loggedWarnings: [String] = []
}

/// What one reload did with the configuration: the `configuration` object of its reply.
package struct ConfigurationReload: Sendable, Hashable {
    /// The file read; nil when started without `--config` (nothing to read again).
    package var file: String?
    /// Keys whose new value is in effect (`applied`).
    package var applied: [ConfigurationChange.Difference] = []
    /// Keys whose new value waits for a restart (`restart_needed`).
    package var waitingForRestart: [ConfigurationChange.Difference] = []
    /// Why the configuration read was not put in effect (`error`); the running one is kept.
    package var error: String?
    /// What l10nd doubts in the configuration now in effect (`warnings`).
    package var warnings: [String] = []

    /// The reply's `configuration` member.
    package var wireValue: WireValue {
        .object([
            "file": file.map(WireValue.string) ?? .null,
            "applied": .array(applied.map { .string($0.description) }),
            "restart_needed": .array(waitingForRestart.map { .string($0.description) }),
            "error": error.map(WireValue.string) ?? .null,
            "warnings": .array(warnings.map(WireValue.string)),
        ])
    }
}
