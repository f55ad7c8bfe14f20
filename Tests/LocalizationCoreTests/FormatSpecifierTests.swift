import LocalizationCore
import Testing

@Suite struct FormatSpecifierTests {
    @Test func findsEveryConversion() {
        let found = FormatSpecifier.parse("%@ %d %ld %lld %u %f %.2f %s %% %2$@ %#@files@ %-5.1e %zd")
        #expect(
            found.map(\.text) == [
                "%@", "%d", "%ld", "%lld", "%u", "%f", "%.2f", "%s", "%2$@", "%#@files@", "%-5.1e", "%zd",
            ])
        #expect(
            found.map(\.kind) == [
                .object, .integer, .integer, .integer, .integer, .double, .double, .cString, .object, .pluralVariable,
                .double, .integer,
            ])
        #expect(found[8].position == 2)
        #expect(found[9].conversion == "files")
    }

    @Test func percentLiteralAndTrailingPercentAreNotConversions() {
        #expect(FormatSpecifier.parse("100%% done %").isEmpty)
        // As in printf, "50% off" holds "% o": an octal conversion with the space flag.
        #expect(FormatSpecifier.parse("50% off").map(\.text) == ["% o"])
    }

    @Test func positionsMakeOrderFree() {
        #expect(FormatSpecifier.signatureMismatch("%1$@ has %2$d", "%2$d件 %1$@") == nil)
        #expect(FormatSpecifier.signatureMismatch("%@ has %d", "%1$@ has %2$d") == nil)
    }

    @Test func mismatchesAreDescribed() throws {
        let message = try #require(FormatSpecifier.signatureMismatch("%@ files", "%d files"))
        #expect(message.contains("1: object"))
        #expect(message.contains("1: integer"))
        #expect(FormatSpecifier.signatureMismatch("%@", "no argument") != nil)
        #expect(FormatSpecifier.signatureMismatch("%d", "%ld") == nil)
    }
}
