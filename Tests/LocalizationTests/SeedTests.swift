import Localization
import TestSupport
import XCTest

/// The seed project's own test, run against `Examples/Resources`.
final class SeedTests: XCTestCase {
    override func setUp() {
        Localizer.shared.useResources(at: PackagePaths.sharedLocalizerRoots)
    }

    func testSeed() {
        XCTAssertEqual("多言語化".en.localized, "Multilingualization")
        XCTAssertEqual("多言語化".ja.localized, "多言語化")
    }

    func testSwitchingLanguagesPerCall() {
        let key = "多言語化"
        XCTAssertEqual(key.ja.localized, "多言語化")
        XCTAssertEqual(key.en.localized, "Multilingualization")
        XCTAssertEqual(key.ja.localized, "多言語化")
        XCTAssertEqual(key.de.localized, "Mehrsprachigkeit")
        XCTAssertEqual(key.language("zh_TW").localized, "多語言化")
    }

    func testBaseFallback() {
        XCTAssertEqual("保存".ja.localized, "Save", "ja lacks the key: Base serves it")
        XCTAssertEqual("about.title".fr.localized, "About l10nd")
        XCTAssertEqual("多言語化".ko.localized, "Multilingualization", "no ko.lproj: Base")
        XCTAssertEqual("保存".base.localized, "Save")
    }

    func testOtherTablesAndMissingKeys() {
        XCTAssertEqual("title".ja.localized(table: "Settings"), "環境設定")
        XCTAssertEqual("nobody has this".ja.localized, "nobody has this")
    }

    func testBadTagsNeverCrash() {
        XCTAssertEqual("多言語化".language("../../etc/passwd").localized, "Multilingualization")
        XCTAssertEqual("多言語化".language("").localized, "Multilingualization")
    }

    func testPreferenceList() {
        XCTAssertEqual("保存".languages(["ja", "fr"]).localized, "Enregistrer")
        XCTAssertEqual("保存".languages(["ja", "fr"]).identifier, "ja")
    }
}
