// The one C header the daemon's watcher sees: libinotifytools and the inotify constants.
#include <inotifytools/inotifytools.h>
#include <inotifytools/inotify.h>
#include <sys/inotify.h>
#include <stddef.h>

// `struct inotify_event` ends in a flexible array member, which Swift does not import.
// These helpers read it on the C side so Swift copies the name out immediately.

/// The event's file name, or "" when the event concerns the watched directory itself.
static inline const char *l10nd_inotify_event_name(const struct inotify_event *event) {
    return event->len > 0 ? event->name : "";
}

/// How many bytes `l10nd_inotify_event_name` may hold (the kernel NUL-pads the name).
static inline unsigned int l10nd_inotify_event_name_capacity(const struct inotify_event *event) {
    return event->len;
}
