import LocalizationCore
import Testing

@Suite struct PreferredLanguagesTests {
    func preferred(_ environment: [String: String]) -> [String] {
        PreferredLanguages.from(environment: environment).map(\.identifier)
    }

    @Test func languageListComesBeforeLocale() {
        #expect(preferred(["LANGUAGE": "sv:de", "LANG": "ja_JP.UTF-8"]) == ["sv", "de", "ja-JP"])
    }

    @Test func lcAllBeatsLcMessagesBeatsLang() {
        #expect(preferred(["LC_ALL": "fr_FR.UTF-8", "LC_MESSAGES": "de_DE", "LANG": "ja_JP"]) == ["fr-FR"])
        #expect(preferred(["LC_MESSAGES": "de_DE", "LANG": "ja_JP"]) == ["de-DE"])
        #expect(preferred(["LC_ALL": "", "LANG": "ja_JP"]) == ["ja-JP"])
    }

    @Test func cLocaleIgnoresLanguageAsGettextDoes() {
        #expect(preferred(["LANGUAGE": "sv", "LANG": "C"]) == [])
        #expect(preferred(["LANGUAGE": "sv", "LC_ALL": "POSIX"]) == [])
        #expect(preferred(["LANGUAGE": "sv", "LANG": "C.UTF-8"]) == [])
    }

    @Test func languageWithoutLocaleIsIgnoredAsGettextDoes() {
        #expect(preferred(["LANGUAGE": "sv"]) == [])
    }

    @Test func junkEntriesAreSkipped() {
        #expect(preferred(["LANGUAGE": "sv::../x:de", "LANG": "ja_JP"]) == ["sv", "de", "ja-JP"])
    }
}
