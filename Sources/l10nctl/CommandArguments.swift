/// A command's arguments split into positionals, options with values, and flags.
///
/// `--name value` and `--name=value` both work; an option may repeat (`--lang ja --lang en`);
/// `--` ends options. Anything unknown is a ``UsageError``.
struct CommandArguments {
    var positionals: [String] = []
    var options: [String: [String]] = [:]
    var flags: Set<String> = []

    init(_ arguments: some Sequence<String>, valueOptions: Set<String>, flagOptions: Set<String>) throws(UsageError) {
        var iterator = arguments.makeIterator()
        var onlyPositionals = false
        while let argument = iterator.next() {
            if onlyPositionals || !argument.hasPrefix("--") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if flagOptions.contains(name), inlineValue == nil {
                flags.insert(name)
            } else if valueOptions.contains(name) {
                guard let value = inlineValue ?? iterator.next() else {
                    throw UsageError("--\(name) needs a value")
                }
                options[name, default: []].append(value)
            } else {
                throw UsageError("unknown option '--\(name)'")
            }
        }
    }

    /// The last value given for `name`, if any.
    func value(_ name: String) -> String? { options[name]?.last }

    /// Every value given for `name`, in order.
    func values(_ name: String) -> [String] { options[name] ?? [] }
}
