/// Which device variant stands for an entry whose text differs by device.
///
/// A daemon on Linux has no device of its own, so a plain lookup needs one variant to
/// answer with. The catch-all `other` is what Apple's platforms use for a device the file
/// does not name; without it, `mac` (a desktop, like most Linux hosts), then the handheld
/// devices; a name outside the list only when nothing else is there, the alphabetically
/// first so the answer never depends on dictionary order.
enum DevicePreference {
    /// The device names in the order they are preferred.
    static let order = ["other", "mac", "iphone", "ipad", "ipod", "applewatch", "appletv", "applevision"]

    /// The preferred device among `devices`, or `nil` for none.
    static func preferredDevice(among devices: some Collection<String>) -> String? {
        for device in order where devices.contains(device) {
            return device
        }
        return devices.min()
    }
}
