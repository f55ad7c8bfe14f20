import LocalizationCore
import TestSupport
import Testing

/// `ResourceCatalog.lookup(…plural: .counts(…))`: each plural variable takes the count of its own
/// argument, what the daemon answers for a lookup's `counts` (protocol 1.3).
@Suite struct PluralCountsTests {
    let catalog = ResourceSet.load(roots: [PackagePaths.exampleResources]).catalog

    func lookup(_ key: String, _ language: String, table: String? = nil, counts: [PluralOperands?]) throws -> String {
        try catalog.lookup(key, in: table, chain: catalog.chain([LanguageTag(language)]), plural: .counts(counts)).value
    }

    @Test func eachVariableTakesItsOwnArgument() throws {
        let files = "%d files in %d folders"
        #expect(
            try lookup(files, "fr", counts: [PluralOperands(3), PluralOperands(1)]) == "%1$d fichiers dans %2$d dossier"
        )
        #expect(try lookup(files, "ru", counts: [PluralOperands(21), PluralOperands(2)]) == "%1$d файл в %2$d папках")
        // Japanese names its arguments (`%2$#@folders@内の%1$#@files@`): positions, not order.
        #expect(try lookup(files, "ja", counts: [PluralOperands(3), PluralOperands(1)]) == "%2$d 個のフォルダ内の%1$d 個のファイル")
        // A String Catalog substitution takes the argument its `argNum` names.
        #expect(
            try lookup(
                "%lld photos in %lld albums", "ar", table: "Plurals", counts: [PluralOperands(0), PluralOperands(2)])
                == "لا توجد صور في ألبومين")
    }

    @Test func aMissingOrNilCountTakesOther() throws {
        let files = "%d files in %d folders"
        #expect(try lookup(files, "en", counts: [nil, PluralOperands(1)]) == "%1$d files in %2$d folder")
        #expect(try lookup(files, "en", counts: [PluralOperands(1)]) == "%1$d file in %2$d folders")
        #expect(try lookup(files, "en", counts: []) == "%1$d files in %2$d folders")
        // Decimals keep their visible fraction digits: `1.0` is `other` in English.
        #expect(try lookup("%.1f hours", "en", counts: [PluralOperands("1.0")]) == "%.1f hours")
        #expect(try lookup("%.1f hours", "fr", counts: [PluralOperands("1.5")]) == "%.1f heure")
    }

    /// A variable that prints its count with an integer conversion selects by the count's
    /// integral part, the number it prints (issue 25: `1.5` selected `other`, "1 files");
    /// a catalog variation without `NSStringFormatValueTypeKey` by its `other` form's.
    @Test func anIntegerVariableSelectsByTheIntegralPart() throws {
        #expect(try lookup("%d files", "en", counts: [PluralOperands("1.5")]) == "%d file")
        #expect(try lookup("%d files", "en", counts: [PluralOperands("1.0")]) == "%d file")
        #expect(try lookup("%d files", "en", counts: [PluralOperands("2.5")]) == "%d files")
        #expect(try lookup("%d files", "ru", counts: [PluralOperands("21.9")]) == "%d файл")
        #expect(
            try lookup("%d files in %d folders", "en", counts: [PluralOperands("1.5"), PluralOperands("1.0")])
                == "%1$d file in %2$d folder")
        let catalogVariable = PluralFormat.Variable(forms: [.one: "%lld photo", .other: "%lld photos"])
        #expect(catalogVariable.takesInteger)
        #expect(!PluralFormat.Variable(valueType: "f", forms: [.other: "%d"]).takesInteger)
        #expect(PluralFormat.Variable(valueType: "lu", forms: [.other: "%f"]).takesInteger)
        #expect(!PluralFormat.Variable(forms: [.other: "%.1f hours"]).takesInteger)
    }

    /// A conversion without a position takes the next argument counted among those without
    /// one, as CoreFoundation numbers them: `%2$@ has %#@c@` selects `c` by argument 1.
    @Test func unnumberedConversionsAreCountedApart() throws {
        let format = PluralFormat(
            format: "%2$@ has %#@c@",
            variables: ["c": .init(valueType: "d", forms: [.one: "%d file", .other: "%d files"])])
        #expect(
            format.resolved(.counts([PluralOperands(1), nil]), rules: .cldr(for: LanguageTag(language: "en")))
                == "%2$@ has %1$d file")
        #expect(FormatSpecifier.argumentKinds(of: FormatSpecifier.parse("%2$@ has %d")) == [2: .object, 1: .integer])
    }

    @Test func plainEntriesAndMissingKeysIgnoreCounts() throws {
        #expect(try lookup("多言語化", "en", counts: [PluralOperands(2)]) == "Multilingualization")
        #expect(try lookup("nobody has this %d", "en", counts: [PluralOperands(2)]) == "nobody has this %d")
    }

    @Test func countsAndOneCountAgreeForOneVariable() throws {
        for language in ["en", "fr", "ru", "ar", "ja"] {
            for number in [0, 1, 2, 5, 11, 21, 101] {
                let chain = catalog.chain([try LanguageTag(language)])
                let single = catalog.lookup("%d files", chain: chain, plural: .count(PluralOperands(number))).value
                #expect(
                    try lookup("%d files", language, counts: [PluralOperands(number)]) == single,
                    "\(language) \(number)")
            }
        }
    }

    /// The value itself: one count serves every argument, a list each its own, `nil` past
    /// its end; no count, or `nil`, is none.
    @Test func eachArgumentFindsItsCount() {
        let one = PluralCounts.count(PluralOperands(2))
        let each = PluralCounts.counts([nil, PluralOperands(3)])
        #expect([1, 2, 9].map(one.count(ofArgument:)) == [PluralOperands(2), PluralOperands(2), PluralOperands(2)])
        #expect([1, 2, 3].map(each.count(ofArgument:)) == [nil, PluralOperands(3), nil])
        #expect(PluralCounts.none.count(ofArgument: 1) == nil)
        #expect(PluralCounts(nil) == .none)
        #expect(PluralCounts(PluralOperands(1)) == .count(PluralOperands(1)))
    }
}
