import Foundation
import Localization
import LocalizationCore
import TestSupport
import Testing

/// Plurals from the real example `.stringsdict` and `.xcstrings` files, Swift formatting
/// that never crashes, numbers and dates per language, and pseudo-languages — embedded.
@Suite(.serialized) struct PluralFormattingTests {
    init() { Localizer.shared.useResources(at: PackagePaths.sharedLocalizerRoots) }

    /// Apple's documented categories at 0, 1, 2, 5, 21 in en, ru, ar, ja, fr (Apple's
    /// `zero` form is used for 0 when the entry has one).
    static let stringsdictCases: [(String, Int, String)] = [
        ("en", 0, "0 files"), ("en", 1, "1 file"), ("en", 2, "2 files"), ("en", 5, "5 files"), ("en", 21, "21 files"),
        ("ru", 0, "0 файлов"), ("ru", 1, "1 файл"), ("ru", 2, "2 файла"), ("ru", 5, "5 файлов"), ("ru", 21, "21 файл"),
        ("ar", 0, "لا توجد ملفات"), ("ar", 1, "ملف واحد"), ("ar", 2, "ملفان"), ("ar", 5, "5 ملفات"),
        ("ar", 21, "21 ملفًا"),
        ("ja", 0, "0 個のファイル"), ("ja", 1, "1 個のファイル"), ("ja", 21, "21 個のファイル"),
        ("fr", 0, "0 fichier"), ("fr", 1, "1 fichier"), ("fr", 2, "2 fichiers"), ("fr", 21, "21 fichiers"),
    ]

    @Test(arguments: stringsdictCases) func stringsdictCount(language: String, count: Int, expected: String) {
        #expect("%d files".language(language).localized(count: count) == expected)
    }

    @Test func zeroFormOnlyWhereTheEntryHasOne() {
        #expect("%ld unread messages".en.localized(count: 0) == "No unread messages")
        #expect("%ld unread messages".ja.localized(count: 0) == "未読メッセージはありません")
        #expect("%ld unread messages".ru.localized(count: 21) == "21 непрочитанное сообщение")
    }

    @Test(arguments: [
        ("en", "1.5 hours"), ("ru", "1,5 часа"), ("ar", "1٫5 ساعة"), ("ja", "1.5 時間"), ("fr", "1,5 heure"),
    ])
    func decimalCount(language: String, expected: String) {
        let value = "%.1f hours".language(language).localized(count: 1.5)
        // Arabic's decimal separator differs between ICU versions; the form is what matters.
        if language == "ar" { #expect(value.hasSuffix(" ساعة")) } else { #expect(value == expected) }
    }

    /// Outside testers: `localized(count: 1.5)` on a `%ld` string returned "%ld files"
    /// unfilled. An integer conversion takes the count's integral part, which chooses the
    /// form too (gettext's `ngettext` takes an `unsigned long`).
    @Test func aFractionalCountOfAnIntegerStringTakesItsIntegralPart() {
        #expect("%d files".en.localized(count: 1.5) == "1 file")
        #expect("%d files".en.localized(count: 2.0) == "2 files")
        #expect("%d files".ru.localized(count: 21.9) == "21 файл")
        #expect("%d files".fr.localized(count: -1.5) == "-1 fichier")
        #expect("%ld unread messages".en.localized(count: 0.5) == "No unread messages")
        // A floating conversion keeps the fraction, and its form follows it.
        #expect("%.1f hours".en.localized(count: 1.5) == "1.5 hours")
    }

    static let catalogCases: [(String, Int, Int, String)] = [
        ("en", 1, 2, "1 photo in 2 albums"), ("en", 5, 1, "5 photos in 1 album"),
        ("ru", 21, 5, "21 фотография в 5 альбомах"), ("ru", 2, 1, "2 фотографии в 1 альбоме"),
        ("ar", 0, 2, "لا توجد صور في ألبومين"), ("ar", 5, 21, "5 صور في 21 ألبومًا"),
        ("ja", 5, 2, "2 個のアルバムの5 枚の写真"), ("fr", 0, 21, "0 photo dans 21 albums"),
    ]

    @Test(arguments: catalogCases) func xcstringsSubstitutions(
        language: String, photos: Int, albums: Int, expected: String
    ) {
        #expect("%lld photos in %lld albums".language(language).localized(photos, albums, table: "Plurals") == expected)
    }

    @Test func xcstringsPluralVariation() {
        #expect("%lld photos".ru.localized(count: 21, table: "Plurals") == "21 фотография")
        #expect("%lld photos".ar.localized(count: 2, table: "Plurals") == "صورتان")
        #expect("%lld photos".fr.localized(count: 1, table: "Plurals") == "1 photo")
    }

    @Test func severalVariablesInAStringsdictTakeTheirOwnArguments() {
        #expect("%d files in %d folders".en.localized(3, 1) == "3 files in 1 folder")
        #expect("%d files in %d folders".ru.localized(21, 2) == "21 файл в 2 папках")
        #expect("%d files in %d folders".ja.localized(3, 1) == "1 個のフォルダ内の3 個のファイル")
    }

    @Test func formatterHandlesEverySpecifier() throws {
        let text = try LocalizedFormatter.format(
            "%@ %d %ld %lld %u %f %.2f %s %% %2$d", ["a", 1, 2, Int64(3), UInt(4), 1.5, 2.375, "s"])
        #expect(text == "a 1 2 3 4 1.500000 2.38 s % 1")
    }

    @Test func mismatchesThrowNeverCrash() {
        let cases: [(String, [any CVarArg])] = [
            ("%d", []), ("%@ %@", ["one"]), ("%d", ["text"]), ("%s", [5]), ("%5$@", ["a", "b", "c", "d", "e"]),
            ("%*d", [3.5, 4]), ("%n", [1]), ("%f", ["x"]), ("%Lf", [1.5]), ("%d", [1.5]),
            // Widths and precisions Foundation traps on (past Int32) or would allocate for.
            ("%99999999999d", [5]), ("%2147483648d", [5]), ("%.99999999999f", [1.5]), ("%100000000d", [1]),
            ("%4096s", ["a"]), ("%1$.4096@", ["a"]),
        ]
        for (format, arguments) in cases {
            #expect(throws: FormatMismatch.self, "\(format)") { try LocalizedFormatter.format(format, arguments) }
            _ = LocalizedFormatter.formatLeniently(format, arguments)
        }
    }

    @Test func widthsUpToCsMinimumStillFormat() throws {
        #expect(try LocalizedFormatter.format("%4095d", [7]).count == 4095)
        #expect(try LocalizedFormatter.format("%-08.2f|", [1.5]) == "1.50    |")
    }

    @Test func positionsAndStarsAreReadAsFoundationReadsThem() throws {
        // Argument 2 is used by no conversion, so it takes no argument: `%3$@` reads the second.
        #expect(try LocalizedFormatter.format("%3$@ %1$@", ["a", "b", "c"]) == "b a")
        #expect(try LocalizedFormatter.format("%*d|%p", [3, 4, 1]) == "  4|0x1")
    }

    @Test func extraArgumentsAreIgnored() throws {
        #expect(try LocalizedFormatter.format("%@", ["a", 2, 3.0]) == "a")
    }

    /// A translation with `%d` where the development language has `%@`: the development
    /// language's string is used, never a crash.
    @Test func mismatchedTranslationFallsBackToTheDevelopmentLanguage() throws {
        // Tests/Fixtures/Resources/{en,de}.lproj/Mismatch.strings
        #expect("greeting".de.localized("Ann", 3, table: "Mismatch") == "Hello Ann, you have 3 files")
        // A plain lookup (no arguments) is not formatting: it returns the translation as it is.
        #expect("greeting".de.localized(table: "Mismatch") == "Hallo %d, %@ %@ %s")
        #expect("greeting".de.localized(1, 2, 3, 4, 5, table: "Mismatch") == "Hello 1, you have 2 files")
    }

    @Test func numbersAndDates() {
        #expect(1234567.de.localized == "1.234.567")
        #expect(1234567.ja.localized == "1,234,567")
        #expect(1234567.en.localized == "1,234,567")
        #expect(1234.5.de.localized == "1.234,5")
        let date = Date(timeIntervalSince1970: 0)
        #expect(date.en.localized(date: .long, time: .none) == "January 1, 1970")
        #expect(date.de.localized(date: .long, time: .none) == "1. Januar 1970")
    }

    @Test func pseudoLanguagesEmbedded() {
        #expect("多言語化".language("en-XA").localized == "[Ḿûļţîļîñĝûåļîžåţîöñ one two]")
        #expect("%d files".language("en-XA").localized(count: 1) == "[1 ƒîļé]")
        let rtl = "多言語化".language("ar-XB").localized
        #expect(rtl == "\u{200F}\u{202E}Multilingualization\u{202C}\u{200F}")
        #expect("%d files in %d folders".language("ar-XB").localized(2, 3).contains("2"))
    }
}
