// `import Localization` shows the client API and only the value types that API's signatures
// use, each re-exported by name: not the whole of `LocalizationCore` (parsers, linters,
// catalogs: a tool that reads resource files imports `LocalizationCore` itself) nor the
// wire's codecs. docs/api/Localization.md lists the result (scripts/api-listing).
//
// From `LocalizationCore`: what a lookup answers with (`Localizer.lookup`, `servedLanguages`:
// LookupResult, LanguageTag and its error, TableEntry, PluralFormat, PluralCategory, and
// PluralRules, which their methods take), a lookup's plural counts (PluralOperands, and
// PluralCounts, which `WireOperation.lookup` carries), a format argument the daemon formats
// with (FormatValue), the user's preferred languages (PreferredLanguages), and the formatter
// that finishes a looked-up value as `.localized(args)` does (LocalizedFormatter).
//
// From `LocalizationWire`: ``LocalizationClient`` speaks the socket protocol's messages
// (docs/PROTOCOL.md), so the operations, the replies, their payloads and the pushed event
// come with `import Localization`; the codecs, framing and request envelopes that carry them
// are `package` in `LocalizationWire`.

@_exported public import enum LocalizationCore.FormatValue
@_exported public import struct LocalizationCore.LanguageTag
@_exported public import struct LocalizationCore.LanguageTagError
@_exported public import enum LocalizationCore.LocalizedFormatter
@_exported public import struct LocalizationCore.LookupResult
@_exported public import enum LocalizationCore.PluralCategory
@_exported public import enum LocalizationCore.PluralCounts
@_exported public import struct LocalizationCore.PluralFormat
@_exported public import struct LocalizationCore.PluralOperands
@_exported public import struct LocalizationCore.PluralRules
@_exported public import enum LocalizationCore.PreferredLanguages
@_exported public import struct LocalizationCore.TableEntry
@_exported public import struct LocalizationWire.WireBatchResult
@_exported public import struct LocalizationWire.WireError
@_exported public import enum LocalizationWire.WireEvent
@_exported public import struct LocalizationWire.WireLookupResult
@_exported public import enum LocalizationWire.WireOperation
@_exported public import enum LocalizationWire.WireReply
@_exported public import struct LocalizationWire.WireTableChange
@_exported public import struct LocalizationWire.WireTableResult
@_exported public import enum LocalizationWire.WireValue
