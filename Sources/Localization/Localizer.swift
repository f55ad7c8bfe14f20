import LocalizationCore
import Synchronization
import Foundation

/// Where `localized` gets its strings: the resource directories, loaded on first use.
///
/// Resources come from an explicit ``useResources(at:developmentLanguage:)`` call, else
/// from the `L10N_RESOURCES` environment variable (directories separated by `:`). With
/// neither, every lookup returns its key unchanged.
///
/// ```swift
/// Localizer.shared.useResources(at: ["/usr/share/myapp/Resources"])
/// ```
public final class Localizer: Sendable {
    /// The instance `localized` uses.
    public static let shared = Localizer(environment: ProcessInfo.processInfo.environment)

    private struct State {
        var roots: [String]
        var developmentLanguage: LanguageTag
        var resources: ResourceSet?
    }

    private let state: Mutex<State>
    /// The preferred languages of the process environment, read once.
    let environmentLanguages: [String]

    /// Creates a localizer configured from `environment` (`L10N_RESOURCES`,
    /// `L10N_DEVELOPMENT_LANGUAGE`, and the gettext locale variables).
    public init(environment: [String: String]) {
        let roots = (environment["L10N_RESOURCES"] ?? "").split(separator: ":").map(String.init)
        let development = environment["L10N_DEVELOPMENT_LANGUAGE"].flatMap { try? LanguageTag($0) }
        state = Mutex(State(roots: roots, developmentLanguage: development ?? LanguageTag(language: "en")))
        environmentLanguages = PreferredLanguages.from(environment: environment).map(\.identifier)
    }

    /// Serves lookups from the files under `roots` (earlier roots win), read on first use.
    public func useResources(at roots: [String], developmentLanguage: String = "en") {
        let development = (try? LanguageTag(developmentLanguage)) ?? LanguageTag(language: "en")
        state.withLock { $0 = State(roots: roots, developmentLanguage: development, resources: nil) }
    }

    /// Drops the loaded tables so the next lookup reads the files again.
    public func reload() {
        state.withLock { $0.resources = nil }
    }

    /// Looks `key` up for `languages` (preferred first; tags that do not parse are skipped)
    /// in `table` (`nil` means `Localizable`); a `count` selects a plural entry's forms.
    public func lookup(_ key: String, languages: [String], table: String? = nil, count: Int? = nil) -> LookupResult {
        guard let resources = loadedResources() else { return .missing(key) }
        let tags = languages.compactMap { try? LanguageTag($0) }
        return resources.lookup(key, languages: tags, table: table, count: count.map(PluralOperands.init))
    }

    /// The loaded resources, loading them on first use; `nil` when none are configured.
    private func loadedResources() -> ResourceSet? {
        state.withLock { state in
            if let resources = state.resources { return resources }
            guard !state.roots.isEmpty else { return nil }
            let resources = ResourceSet.load(roots: state.roots, developmentLanguage: state.developmentLanguage)
            state.resources = resources
            return resources
        }
    }
}
