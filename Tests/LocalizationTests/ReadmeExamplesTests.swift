import Foundation
import Localization
import TestSupport
import Testing

/// Every result the README promises for `Examples/Resources`, so the README cannot drift.
@Suite(.serialized) struct ReadmeExamplesTests {
    init() {
        Localizer.shared.useResources(at: PackagePaths.sharedLocalizerRoots)
    }

    @Test func programExamples() {
        #expect("多言語化".en.localized == "Multilingualization")
        #expect("多言語化".ja.localized == "多言語化")
        #expect("保存".ja.localized == "Save")
        #expect("title".ja.localized(table: "Settings") == "環境設定")
        #expect("保存".languages(["ja", "fr"]).localized == "Enregistrer")
        #expect("%d files".ru.localized(count: 21) == "21 файл")
        #expect("%1$@ has %2$d new messages".ja.localized("Ana", 3) == "Anaさんに新しいメッセージが3件あります")
        #expect(1234567.de.localized == "1.234.567")
        #expect("多言語化".language("en-XA").localized.hasPrefix("[Ḿûļţîļîñĝûåļîžåţîöñ"))
        #expect("保存".language("de-DE,de;q=0.9,en;q=0.8").localized == "Sichern")
        #expect(
            String(localized: "\(21) photos", table: "Plurals", locale: Locale(identifier: "ru")) == "21 фотография")
    }
}
