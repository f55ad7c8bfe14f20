import Foundation

/// Which device variant stands for an entry whose text differs by device.
///
/// A daemon on Linux has no device of its own, so a plain lookup needs one variant to
/// answer with. The catch-all `other` is what Apple's platforms use for a device the file
/// does not name; without it, `mac` (a desktop, like most Linux hosts), then the handheld
/// devices; a name outside the list only when nothing else is there, the alphabetically
/// first so the answer never depends on dictionary order.
///
/// `L10N_DEVICE` (in the environment of the daemon, the client program or `l10nctl`) names
/// a device to prefer over all of these, e.g. `L10N_DEVICE=iphone` for a server rendering
/// a phone's text; the order above follows it. Both `.stringsdict` device rules and String
/// Catalog `device` variations follow the one rule.
enum DevicePreference {
    /// The built-in order of device names.
    static let defaultOrder = ["other", "mac", "iphone", "ipad", "ipod", "applewatch", "appletv", "applevision"]

    /// The device names in the order they are preferred: `L10N_DEVICE`, then ``defaultOrder``.
    static let order: [String] = order(preferring: ProcessInfo.processInfo.environment["L10N_DEVICE"])

    /// ``defaultOrder`` with `device` (lowercased, when it is a plain name) first.
    static func order(preferring device: String?) -> [String] {
        guard let device = device?.lowercased(), !device.isEmpty, device.count <= 32,
            device.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
        else { return defaultOrder }
        return [device] + defaultOrder.filter { $0 != device }
    }

    /// The preferred device among `devices`, or `nil` for none.
    static func preferredDevice(among devices: some Collection<String>, order: [String] = order) -> String? {
        for device in order where devices.contains(device) {
            return device
        }
        return devices.min()
    }
}
