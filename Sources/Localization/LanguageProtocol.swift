/// A type whose values can be localized per call, e.g. `"多言語化".en.localized`.
public protocol LanguageProtocol {}
