// `import Localization` is all a program needs: the core's value types (LookupResult,
// LanguageTag, TableEntry…) appear in this module's API, so they come with it.
@_exported public import LocalizationCore
// ``LocalizationClient`` sends `WireOperation`s and returns `WireReply`s: the wire types
// come with `import Localization` too.
@_exported public import LocalizationWire
