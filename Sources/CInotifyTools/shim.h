// The one C header the daemon's watcher sees: libinotifytools and the inotify constants.
#include <inotifytools/inotifytools.h>
#include <inotifytools/inotify.h>
