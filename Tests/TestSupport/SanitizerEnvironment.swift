import Foundation

/// The sanitizer settings of the running tests, for the executables they start.
///
/// Tests start `l10nd` and `l10nctl` with a chosen environment, not the inherited one; under
/// `scripts/sanitize` those executables are sanitized too and must see the same options
/// (suppression files, halt on error), or they report what the run suppresses and exit 1.
public enum SanitizerEnvironment {
    /// `ASAN_OPTIONS`, `LSAN_OPTIONS`, `TSAN_OPTIONS` and `UBSAN_OPTIONS` as set for the
    /// tests; empty in a normal run.
    public static let options: [String: String] = ProcessInfo.processInfo.environment.filter { name, _ in
        ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS"].contains(name)
    }

    /// Whether `scripts/sanitize` runs the tests (it sets `L10N_SANITIZER` to the sanitizer's
    /// name): the few bounds a sanitizer's own machinery would break are adjusted then.
    public static let isSanitizedRun = ProcessInfo.processInfo.environment["L10N_SANITIZER"] != nil

    /// `environment` with the sanitizer options added (a test's own values win).
    public static func adding(to environment: [String: String]) -> [String: String] {
        options.merging(environment) { _, own in own }
    }
}
