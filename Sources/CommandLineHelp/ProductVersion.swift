/// The release of l10nd, l10nctl and the library, printed by `--version` and put in the
/// manual pages' footers and the Debian package's version.
package enum ProductVersion {
    /// The version number.
    package static let string = "0.1.0"
}
