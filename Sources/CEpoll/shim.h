// Linux's epoll, which Swift's Glibc module does not import: the sockets' readiness loop
// waits on it (Sources/LocalizationSockets/Readiness/Epoll.swift). Part of the C library, so nothing
// is linked.
#include <sys/epoll.h>
