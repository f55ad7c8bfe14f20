import Localization
import TestSupport
import Testing

@Suite struct LocalizerTests {
    @Test func nothingConfiguredReturnsTheKey() {
        let localizer = Localizer(environment: [:])
        let result = localizer.lookup("多言語化", languages: ["en"])
        #expect(result.value == "多言語化")
        #expect(!result.found)
    }

    @Test func resourcesFromTheEnvironment() {
        let localizer = Localizer(environment: ["L10N_RESOURCES": "/nonexistent:" + PackagePaths.exampleResources])
        #expect(localizer.lookup("多言語化", languages: ["en"]).value == "Multilingualization")
    }

    @Test func developmentLanguageFromTheEnvironment() throws {
        let root = try TemporaryDirectory()
        try root.write(#""k" = "German";"#, to: "de.lproj/Localizable.strings")
        try root.write(#""k" = "English";"#, to: "en.lproj/Localizable.strings")
        let localizer = Localizer(environment: ["L10N_RESOURCES": root.path, "L10N_DEVELOPMENT_LANGUAGE": "de"])
        #expect(localizer.lookup("k", languages: ["fr"]).value == "German")
    }

    @Test func reloadReadsTheFilesAgain() throws {
        let root = try TemporaryDirectory()
        try root.write(#""k" = "old";"#, to: "ja.lproj/Localizable.strings")
        let localizer = Localizer(environment: [:])
        localizer.useResources(at: [root.path])
        #expect(localizer.lookup("k", languages: ["ja"]).value == "old")
        try root.write(#""k" = "new";"#, to: "ja.lproj/Localizable.strings")
        #expect(localizer.lookup("k", languages: ["ja"]).value == "old")
        localizer.reload()
        #expect(localizer.lookup("k", languages: ["ja"]).value == "new")
    }
}
