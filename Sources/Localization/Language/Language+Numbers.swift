public import Foundation
import LocalizationCore

extension Int: LanguageProtocol {}
extension Double: LanguageProtocol {}
extension Date: LanguageProtocol {}

extension Language {
    /// Foundation's locale for the first requested tag that parses (`ja_JP.UTF-8` → `ja-JP`),
    /// else English.
    var locale: Locale {
        let tag = LanguageTag.preferences(identifiers).first { !$0.isBase }
        return Locale(identifier: tag?.identifier ?? "en")
    }
}

extension Language where Base == Int {
    /// The number with the language's grouping: `1234567.de.localized` is "1.234.567",
    /// `1234567.ja.localized` "1,234,567".
    public var localized: String {
        let formatter = NumberFormatter()
        formatter.locale = locale
        formatter.numberStyle = .decimal
        return formatter.string(from: NSNumber(value: base)) ?? String(base)
    }
}

extension Language where Base == Double {
    /// The number with the language's grouping and decimal separator, up to
    /// `maximumFractionDigits` digits after it: `1234.5.fr.localized` is "1 234,5".
    public func localized(maximumFractionDigits: Int = 3) -> String {
        let formatter = NumberFormatter()
        formatter.locale = locale
        formatter.numberStyle = .decimal
        formatter.maximumFractionDigits = maximumFractionDigits
        return formatter.string(from: NSNumber(value: base)) ?? String(base)
    }

    /// The number as ``localized(maximumFractionDigits:)`` writes it with 3 digits.
    public var localized: String { localized(maximumFractionDigits: 3) }
}

extension Language where Base == Date {
    /// The date (and time) in the language's conventions, in `timeZone` (default UTC, so a
    /// server's answer does not depend on the host's zone).
    public func localized(
        date: DateFormatter.Style = .medium, time: DateFormatter.Style = .short, timeZone: TimeZone = .gmt
    ) -> String {
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.dateStyle = date
        formatter.timeStyle = time
        formatter.timeZone = timeZone
        return formatter.string(from: base)
    }

    /// The date with a medium date and short time style, in UTC.
    public var localized: String { localized() }
}
