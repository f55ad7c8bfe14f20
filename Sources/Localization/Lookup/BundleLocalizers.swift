#if !canImport(Darwin)
    import Foundation
    import Synchronization

    /// Which ``Localizer`` answers `String(localized:…, bundle:)` for a bundle.
    ///
    /// - No bundle, or `Bundle.main`: the main localizer (``Localizer/shared``) as the
    ///   environment or the program configured it. When nothing is configured (no daemon, no
    ///   resources), the executable target's own resource bundle SwiftPM put beside it
    ///   (`<package>_<executable>.resources`), so its String Catalog answers — never a
    ///   library target's bundle, whose strings its `Bundle.module` reaches.
    /// - Another bundle (a SwiftPM `Bundle.module`): the main localizer when it asks a daemon
    ///   whose roots hold the bundle's resources, else the bundle's own files (its
    ///   `.lproj` folders and `.xcstrings`, which SwiftPM copies as they are), with the
    ///   bundle's development localization. Decided on the bundle's first use.
    final class BundleLocalizers: Sendable {
        /// What `String(localized:)` asks.
        static let shared = BundleLocalizers(main: .shared)

        /// Distinct bundles remembered; past it they are forgotten (and decided again) rather
        /// than memory growing with every `Bundle(path:)` a program makes.
        static let capacity = 64

        private let main: Localizer
        /// By bundle object (`nil`: the resources beside the executable). The bundle is
        /// kept, so its identifier is not reused while remembered: a bundle's paths cost a
        /// microsecond each to read on Linux, more than the lookup.
        private let localizers = ForkSafeMutex<[ObjectIdentifier?: (bundle: Bundle?, localizer: Localizer)]>([:])

        /// Bundles resolved against `main`: tests give a localizer of their own.
        init(main: Localizer) {
            self.main = main
        }

        /// `value` for `key`, as `String(localized:)` returns it.
        func localized(
            _ value: String.LocalizationValue, key: String, table: String?, bundle: Bundle?, locale: Locale
        ) -> String {
            localizer(for: bundle).localized(
                value, key: key, languages: main.languages(for: locale), table: table, locale: locale)
        }

        /// The localizer for `bundle` (`nil` is the main bundle).
        func localizer(for bundle: Bundle?) -> Localizer {
            guard let bundle, bundle !== Bundle.main else { return mainLocalizer() }
            return remembered(bundle) {
                let path = bundle.resourcePath ?? bundle.bundlePath
                if bundle.bundleURL.standardizedFileURL == Bundle.main.bundleURL.standardizedFileURL { return main }
                return main.daemonServes(path)
                    ? main : Self.filesLocalizer(roots: [path], developmentLanguage: Self.developmentRegion(of: path))
            }
        }

        private func mainLocalizer() -> Localizer {
            guard !main.isConfigured else { return main }
            return remembered(nil) {
                let executable = Bundle.main.executableURL?.lastPathComponent ?? ProcessInfo.processInfo.processName
                let roots = Self.packageResourceBundles(beside: Bundle.main.bundlePath, executable: executable)
                return roots.isEmpty ? main : Self.filesLocalizer(roots: roots, developmentLanguage: nil)
            }
        }

        private func remembered(_ bundle: Bundle?, make: () -> Localizer) -> Localizer {
            let id = bundle.map(ObjectIdentifier.init)
            if let known = localizers.withLock({ $0[id]?.localizer }) { return known }
            // Made outside the lock: deciding may ask the daemon.
            let made = make()
            return localizers.withLock { localizers in
                if let known = localizers[id] { return known.localizer }
                if localizers.count >= Self.capacity { localizers.removeAll() }
                localizers[id] = (bundle, made)
                return made
            }
        }

        /// A localizer reading the files under `roots` in the process.
        private static func filesLocalizer(roots: [String], developmentLanguage: String?) -> Localizer {
            let localizer = Localizer(environment: ["L10N_MODE": "embedded"])
            localizer.useResources(at: roots, developmentLanguage: developmentLanguage ?? "en")
            return localizer
        }

        /// `CFBundleDevelopmentRegion` from the `Info.plist` in `path` (SwiftPM writes the
        /// package's `defaultLocalization` there), read here rather than through `Bundle`,
        /// whose `developmentLocalization` and `infoDictionary` trap on Linux for a directory
        /// without an `Info.plist`.
        static func developmentRegion(of path: String) -> String? {
            guard let data = FileManager.default.contents(atPath: path + "/Info.plist"),
                let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
            else { return nil }
            return plist["CFBundleDevelopmentRegion"] as? String
        }

        /// The executable's own SwiftPM resource bundle among those beside it on Linux
        /// (`<package>_<executable target>.resources`, where its target's `Bundle.module`
        /// lives), matched by the executable's name. A library target's bundle
        /// (`<package>_<library>.resources`) is never the main bundle's: its strings are
        /// reached through its own `Bundle.module`, as on Apple platforms, where `nil` or
        /// `.main` "searches its main bundle" only.
        static func packageResourceBundles(beside directory: String, executable: String) -> [String] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            let own = "_" + executable + ".resources"
            return names.filter { $0.hasSuffix(own) && $0.count > own.count }.sorted().map { directory + "/" + $0 }
        }
    }
#endif
