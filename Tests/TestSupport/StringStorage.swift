/// Where the string equal to `key` among `strings` keeps its UTF-8 bytes: two strings at
/// the same address share one allocation. Meaningful for strings over 15 UTF-8 bytes only;
/// a shorter one is stored inline.
public func storageAddress(of key: String, among strings: some Sequence<String>) -> UnsafeRawPointer? {
    guard let stored = strings.first(where: { $0 == key }) else { return nil }
    return stored.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
}
