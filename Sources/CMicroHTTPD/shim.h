// The one C header the metrics endpoint sees: libmicrohttpd, and a start function Swift can
// call (MHD_start_daemon is variadic, which Swift does not import).
#include <microhttpd.h>
#include <sys/socket.h>
#include <stddef.h>

/// Starts MHD on its own internal thread (MHD_USE_INTERNAL_POLLING_THREAD with epoll; ITC so
/// MHD_quiesce_daemon can hand a caller's socket back before the stop): on
/// `listen_fd` when it is not -1 (a Unix socket bound by the caller), else on `address`.
/// At most `connection_limit` connections; each is closed after `timeout_seconds` idle.
static inline struct MHD_Daemon *l10nd_mhd_start(
    int listen_fd, const struct sockaddr *address, int ipv6, unsigned int connection_limit,
    unsigned int timeout_seconds, MHD_AccessHandlerCallback handler, void *context) {
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ITC;
    if (ipv6) flags |= MHD_USE_IPv6;
    if (listen_fd != -1) {
        return MHD_start_daemon(
            flags, 0, NULL, NULL, handler, context, MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listen_fd,
            MHD_OPTION_CONNECTION_LIMIT, connection_limit, MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
            MHD_OPTION_END);
    }
    return MHD_start_daemon(
        flags, 0, NULL, NULL, handler, context, MHD_OPTION_SOCK_ADDR, address, MHD_OPTION_CONNECTION_LIMIT,
        connection_limit, MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds, MHD_OPTION_END);
}

/// The TCP port MHD listens on (the one the kernel chose for port 0); 0 when unknown.
static inline unsigned short l10nd_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

// MHD's result and memory-mode enums, spelled on the C side (how Swift imports their cases
// depends on MHD's enum attributes, which vary between releases).
static inline enum MHD_Result l10nd_mhd_yes(void) { return MHD_YES; }
static inline enum MHD_Result l10nd_mhd_no(void) { return MHD_NO; }

/// Queues `body` (copied) with `status` and `content_type` on `connection`.
static inline enum MHD_Result l10nd_mhd_reply(
    struct MHD_Connection *connection, unsigned int status, const char *content_type, const void *body,
    size_t length) {
    struct MHD_Response *response = MHD_create_response_from_buffer(length, (void *)body, MHD_RESPMEM_MUST_COPY);
    if (response == NULL) return MHD_NO;
    if (MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, content_type) != MHD_YES) {
        MHD_destroy_response(response);
        return MHD_NO;
    }
    enum MHD_Result queued = MHD_queue_response(connection, status, response);
    MHD_destroy_response(response);
    return queued;
}
