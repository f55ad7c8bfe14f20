import LocalizationCore

/// Language tags arrive from clients (`"lang"`), environment variables and directory names.
/// Any text must parse or throw; a parsed tag's identifier must parse back to the same tag
/// (the daemon keys its tables by identifier) and must not be longer than the input
/// allows.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let tag = try? LanguageTag(text) else { return 0 }
    let identifier = tag.identifier
    FuzzInput.require(
        identifier.utf8.count <= LanguageTag.maximumLength, "identifier \(identifier.debugDescription) too long")
    let reparsed = try? LanguageTag(identifier)
    FuzzInput.require(
        reparsed == tag, "\(text.debugDescription) → \(identifier.debugDescription) → \(String(describing: reparsed))")
    return 0
}
