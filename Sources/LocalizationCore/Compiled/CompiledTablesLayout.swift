/// Where each field of the compiled tables lies: the numbers docs/FORMAT.md gives, in one
/// place for the writer and the reader. Every integer is little-endian.
package enum CompiledTablesLayout {
    /// The first eight bytes: `L10NDTBL` in ASCII.
    package static let magic: [UInt8] = Array("L10NDTBL".utf8)
    /// The format's major version: a reader refuses any other.
    package static let majorVersion: UInt16 = 2
    /// The format's minor version: additions a version-1 reader may ignore.
    package static let minorVersion: UInt16 = 0
    /// The header's length, and where the body starts.
    package static let headerLength = 128

    /// Header field offsets.
    package enum Header {
        package static let magic = 0
        package static let majorVersion = 8
        package static let minorVersion = 10
        package static let headerLength = 12
        package static let generation = 16
        package static let totalLength = 24
        package static let headerChecksum = 32
        package static let bodyChecksum = 36
        package static let languageCount = 40
        package static let tableCount = 44
        /// Five sections, each an offset then a length in bytes (two `UInt64`s).
        package static let strings = 48
        package static let languages = 64
        package static let tables = 80
        package static let cells = 96
        package static let records = 112
    }

    /// A string reference: `UInt32` offset into the strings section, `UInt32` byte length.
    package static let stringReferenceSize = 8
    /// The reference of an absent optional string (a plural variable's missing form).
    package static let absentString: UInt32 = 0xFFFF_FFFF
    /// A language entry: its identifier's string reference.
    package static let languageEntrySize = 8
    /// A table entry: name (8), key count (4), slot count (4), slots offset (8), keys offset (8).
    package static let tableEntrySize = 32
    /// A cell: the offset of one language's answers for one table, 0 when it has none.
    package static let cellSize = 8
    /// A slot of the key index: the hash's high 32 bits, the key number plus one (0: empty),
    /// then the string reference of the key's canonical composition (NFC).
    package static let slotSize = 16
    /// An answer: a record number, or ``noRecord``.
    package static let answerSize = 4
    /// An answer for a key the language does not answer.
    package static let noRecord: UInt32 = 0xFFFF_FFFF
    /// A record: value (8), answering language (8), plural block offset (8; 0 when none).
    package static let recordSize = 24
    /// A plural block's fixed part: variable count (4), reserved (4), format (8), rules language (8).
    package static let pluralHeaderSize = 24
    /// A plural variable: name (8), value type (8), argument number (4), reserved (4), six forms (48).
    package static let pluralVariableSize = 72
    /// The argument number of a variable that takes its format's position (a signed 32-bit field).
    package static let noArgumentNumber = Int32.min
    /// The plural categories in the order a variable's forms are stored.
    package static let pluralCategories: [PluralCategory] = [.zero, .one, .two, .few, .many, .other]
    /// Every section and block starts at a multiple of this.
    package static let alignment = 8
}
