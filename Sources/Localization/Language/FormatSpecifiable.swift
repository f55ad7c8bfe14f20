#if !canImport(Darwin)
    public import Foundation

    /// A value that `String.LocalizationValue` interpolates as a printf conversion, with the
    /// specifier Xcode writes into a String Catalog key for it: `"\(n) items"` with an `Int`
    /// is the key `%lld items`, and `n` is the format's argument.
    ///
    /// The conforming types and their specifiers are Apple's (`docs/CLIENT.md` has the table).
    /// Foundation on Apple platforms has the same idea as an underscored protocol; on Linux,
    /// where Foundation has no `String.LocalizationValue`, this module provides it.
    public protocol FormatSpecifiable: CustomStringConvertible, CVarArg, Sendable {
        /// The conversion a String Catalog key holds for a value of this type (`%lld` for `Int`).
        static var formatSpecifier: String { get }

        /// The value as a format argument: itself, or a type the formatter and plural
        /// selection read (`CGFloat` is given as a `Double`).
        var formatArgument: any CVarArg & Sendable { get }
    }

    extension FormatSpecifiable {
        /// The value itself.
        public var formatArgument: any CVarArg & Sendable { self }
    }

    extension String: FormatSpecifiable {
        /// `%@`.
        public static var formatSpecifier: String { "%@" }
    }

    extension Int: FormatSpecifiable {
        /// `%lld`.
        public static var formatSpecifier: String { "%lld" }
    }

    extension Int64: FormatSpecifiable {
        /// `%lld`.
        public static var formatSpecifier: String { "%lld" }
    }

    extension Int32: FormatSpecifiable {
        /// `%d`.
        public static var formatSpecifier: String { "%d" }
    }

    extension Int16: FormatSpecifiable {
        /// `%d` (promoted to `int`, as C passes it).
        public static var formatSpecifier: String { "%d" }
    }

    extension Int8: FormatSpecifiable {
        /// `%d` (promoted to `int`, as C passes it).
        public static var formatSpecifier: String { "%d" }
    }

    extension UInt: FormatSpecifiable {
        /// `%llu`.
        public static var formatSpecifier: String { "%llu" }
    }

    extension UInt64: FormatSpecifiable {
        /// `%llu`.
        public static var formatSpecifier: String { "%llu" }
    }

    extension UInt32: FormatSpecifiable {
        /// `%u`.
        public static var formatSpecifier: String { "%u" }
    }

    extension UInt16: FormatSpecifiable {
        /// `%u` (promoted to `unsigned int`, as C passes it).
        public static var formatSpecifier: String { "%u" }
    }

    extension UInt8: FormatSpecifiable {
        /// `%u` (promoted to `unsigned int`, as C passes it).
        public static var formatSpecifier: String { "%u" }
    }

    extension Double: FormatSpecifiable {
        /// `%lf`.
        public static var formatSpecifier: String { "%lf" }
    }

    extension CGFloat: FormatSpecifiable {
        /// `%lf`, as a `Double`.
        public static var formatSpecifier: String { "%lf" }

        /// The value as a `Double`.
        public var formatArgument: any CVarArg & Sendable { Double(self) }
    }

    extension Float: FormatSpecifiable {
        /// `%f`.
        public static var formatSpecifier: String { "%f" }
    }
#endif
