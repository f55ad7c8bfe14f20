import CommandLineHelp
import Testing

/// The one command-line reader both executables use, by a grammar of each kind: one that
/// refuses unknown options (`l10nd`, an `l10nctl` command) and one that hands them on
/// (`l10nctl`'s global options).
@Suite struct ArgumentParserTests {
    let strict = ArgumentGrammar(
        valueOptions: ["socket", "settle-ms"], flags: ["help", "strict"], shortFlags: ["-h": "help"])
    let handingOn = ArgumentGrammar(valueOptions: ["socket"], flags: ["json"], passesUnknownOptions: true)

    func read(_ arguments: [String], _ grammar: ArgumentGrammar) throws(UsageError) -> [ParsedArgument] {
        var parser = ArgumentParser(arguments, grammar: grammar)
        var read: [ParsedArgument] = []
        while let argument = try parser.next() { read.append(argument) }
        return read
    }

    func message(_ arguments: [String], _ grammar: ArgumentGrammar) -> String? {
        do {
            _ = try read(arguments, grammar)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func valuesComeAfterEqualsOrAsTheNextArgument() throws {
        #expect(
            try read(["--socket=/a", "x", "--socket", "/b", "-h", "--strict", "-", "--", "--strict", "-h"], strict) == [
                .option("socket", value: "/a"), .positional("x"), .option("socket", value: "/b"), .flag("help"),
                .flag("strict"), .positional("-"), .endOfOptions, .positional("--strict"), .positional("-h"),
            ])
        // A value that starts with `--` goes after `=`; an empty value after `=` is a value; a
        // value starting with one dash is a value (`--count -1`, `--output -`).
        #expect(
            try read(["--socket=--strict", "--socket=", "--socket", "-1"], strict) == [
                .option("socket", value: "--strict"), .option("socket", value: ""), .option("socket", value: "-1"),
            ])
    }

    @Test func badOptionsSayWhatIsWrong() {
        #expect(message(["--socket"], strict) == "option '--socket' needs a value")
        // A forgotten value does not swallow the option after it (tester: `l10nd --resources
        // --socket X` served a root named `--socket`), nor `--`.
        #expect(message(["--socket", "--strict"], strict) == "option '--socket' needs a value")
        #expect(message(["--socket", "--settle-ms", "3"], strict) == "option '--socket' needs a value")
        #expect(message(["--socket", "--", "x"], strict) == "option '--socket' needs a value")
        #expect(message(["--strict=1"], strict) == "option '--strict' takes no value")
        #expect(message(["--setle-ms", "3"], strict) == "unknown option '--setle-ms' (did you mean '--settle-ms'?)")
        #expect(message(["--bogus"], strict) == "unknown option '--bogus'")
    }

    @Test func theFirstBadArgumentIsTheOneReported() throws {
        var parser = ArgumentParser(["--socket", "/a", "--bogus", "--socket"], grammar: strict)
        #expect(try parser.next() == .option("socket", value: "/a"))
        #expect(throws: UsageError("unknown option '--bogus'")) { try parser.next() }
    }

    @Test func aGrammarThatHandsOnKeepsUnknownOptionsAsGiven() throws {
        #expect(
            try read(["--lang", "ja", "--json", "--json=1", "--socket=/s", "-h"], handingOn) == [
                .unknownOption("--lang"), .positional("ja"), .flag("json"), .unknownOption("--json=1"),
                .option("socket", value: "/s"), .positional("-h"),
            ])
        #expect(message(["--socket"], handingOn) == "option '--socket' needs a value")
        #expect(message(["--socket", "--lang", "ja"], handingOn) == "option '--socket' needs a value")
    }
}
