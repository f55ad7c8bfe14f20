package import LocalizationCore

extension WireValue {
    /// A format argument as JSON carries it.
    package init(_ value: FormatValue) {
        switch value {
        case .string(let text): self = .string(text)
        case .integer(let integer): self = .integer(integer)
        case .double(let double): self = .double(double)
        }
    }
}
