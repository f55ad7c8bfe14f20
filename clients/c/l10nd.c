/* l10nd.c: the C client of l10nd. Design (why it is shaped so):
 * - One connection per client, requests tagged with ids, so threads can share it: replies come
 *   in request order but a thread that timed out leaves its reply behind, so ids, not order,
 *   say whose a reply is.
 * - Leader/follower reading: the first waiting thread reads lines and hands each reply to its
 *   waiter (mutex + condition variable); the others sleep until their reply is handed over.
 * - Writes hold the write turn (`writing`, taken under mu), never mu: a writer blocked by the
 *   daemon's flow control must not keep the reader from delivering replies (which is what
 *   unblocks the daemon). The turn is waited for only until the call's deadline (a condition
 *   variable on the monotonic clock), so a thread behind a slow writer still fails in time.
 * - A broken connection is replaced on the next call; a send that fails before any byte went
 *   out (the daemon restarted since the last call) is retried once on a new connection. While
 *   l10nd is not listening, a call tries to connect every RECONNECT_MS until its deadline,
 *   holding no lock between attempts: every thread's call ends at its own time limit.
 * - Mapped lookups (l10nd_segments.c) take no thread of their own: a second connection, the
 *   watch, is subscribed and asks `map`; each lookup first polls it (one poll(2), without
 *   waiting) under a trylock, so an announced change retires the mapped generation before the
 *   next lookup reads it, and whoever sees the change maps the new one. Lookups read the
 *   current generation under a read lock; a new one is swapped in under the write lock, and
 *   the old one unmapped then, when no lookup can be reading it.
 * - Mapped lookups walk the fallback chain the daemon builds (protocol 1.7 `chain`, asked once
 *   per query's languages and table while the generations keep their fingerprint, l10nd_chains.c): a fallback and a miss are
 *   answered in place too, and reported to the daemon's missing-key report in one `batch` per
 *   (languages, table) at most every MISS_INTERVAL_MS, by the lookup that finds that time has
 *   passed (no thread of the library's own), and at l10nd_close. */
#define _GNU_SOURCE
#include "l10nd.h"
#include "l10nd_chains.h"
#include "l10nd_segments.h"

#include <errno.h>
#include <grp.h>
#include <json-c/json.h>
#include <poll.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define MAX_LINE (64u * 1024u * 1024u) /* the daemon's batch reply cap (PROTOCOL.md) */
#define MAX_DESCRIPTORS 253            /* SCM_MAX_FD: the most one message carries (a map's slabs) */
#define RECONNECT_MS 50                /* between a call's attempts at connecting while l10nd is away */
#define WATCH_RETRY_MS 100             /* between attempts at the watch connection while l10nd is away */
#define DEFAULT_TIMEOUT_MS 5000
#define MISS_INTERVAL_MS 200           /* between two reports of in-place misses (the Swift client's) */
#define MISS_CAPACITY 4096             /* distinct keys waiting to be reported; more are dropped, and counted */
#define MISS_NOTICE_MS 60000           /* between two stderr lines counting keys that could not be reported */
#define CLOSE_FLUSH_MS 500             /* the longest l10nd_close waits to report the last misses */

/* ---- the socket rule ---- */

static int exists(const char *path) { return access(path, F_OK) == 0; }

/* `path` from the current directory when it is relative (`l10nd.sock`, `./run/s.sock`), as the
 * kernel would take it; absolute paths and `@name` as they are. Not normalised: `..` means what
 * the kernel makes of it (the Swift library's ClientSocketPath.absolute). */
static void absolute(const char *path, char *out, size_t size) {
    char directory[4096];
    if (path[0] == '/' || path[0] == '@' || !getcwd(directory, sizeof directory)) {
        snprintf(out, size, "%s", path);
        return;
    }
    if (!strncmp(path, "./", 2)) path += 2;
    /* Cut short, it is still longer than any socket address: connecting says ENAMETOOLONG. */
    size_t prefix = strcmp(directory, "/") ? strlen(directory) : 0, length = strlen(path);
    if (prefix + 1 + length >= size) length = prefix + 1 >= size ? 0 : size - prefix - 2;
    if (prefix >= size) prefix = size - 1;
    memcpy(out, directory, prefix);
    if (prefix + 1 < size) {
        out[prefix] = '/';
        memcpy(out + prefix + 1, path, length);
        out[prefix + 1 + length] = 0;
    } else {
        out[prefix] = 0;
    }
}

/* Fills candidates[0..n) with the rule's paths; returns n (1 or 2). */
static int candidates(char out[2][sizeof(((struct sockaddr_un *)0)->sun_path) + 64]) {
    const char *env = getenv("L10N_SOCKET");
    if (env && *env) {
        absolute(env, out[0], sizeof out[0]);
        return 1;
    }
    const char *runtime = getenv("XDG_RUNTIME_DIR");
    if (runtime && runtime[0] == '/') {
        size_t len = strlen(runtime);
        if (len > 1 && runtime[len - 1] == '/') len--;
        snprintf(out[0], sizeof out[0], "%.*s/l10nd/l10nd.sock", (int)len, runtime);
    } else {
        snprintf(out[0], sizeof out[0], "/tmp/l10nd-%u/l10nd.sock", (unsigned)getuid());
    }
    const char *system = getenv("L10N_SYSTEM_SOCKET_FOR_TESTS");
    snprintf(out[1], sizeof out[1], "%s", system && *system ? system : "/run/l10nd/l10nd.sock");
    return 2;
}

/* A listener whose backlog is full (it accepts nothing) holds connect(2) up: waited for at most
 * wait_ms (SO_SNDTIMEO bounds it on a Unix socket; EAGAIN after), not for ever. */
static int connect_path(const char *path, int wait_ms, int *fd_out, int *error_out) {
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof address.sun_path) {
        *error_out = ENAMETOOLONG;
        return -1;
    }
    strcpy(address.sun_path, path);
    socklen_t length = sizeof address;
    if (path[0] == '@') { /* an abstract name: a NUL first, and exactly its bytes counted */
        address.sun_path[0] = 0;
        length = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(path));
    }
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        *error_out = errno;
        return -1;
    }
    struct timeval wait = {.tv_sec = wait_ms / 1000, .tv_usec = (wait_ms % 1000) * 1000};
    if (wait_ms < 1) wait.tv_usec = 1000; /* 0 would mean no limit */
    if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &wait, sizeof wait) != 0 ||
        connect(fd, (struct sockaddr *)&address, length) != 0) {
        *error_out = errno;
        close(fd);
        return -1;
    }
    *fd_out = fd;
    return 0;
}

/* What to do about a refused permission at `path`: join the group that owns the socket (or,
 * when the socket cannot even be looked at, its directory), as stat finds it now -- the same
 * words as the Swift library's and l10nctl's (ClientSocketPath.groupAdvice). */
static void group_advice(const char *path, char *out, size_t size) {
    struct stat status;
    char directory[sizeof(((struct sockaddr_un *)0)->sun_path) + 64];
    char owner[sizeof directory + 32] = "the socket", listing[sizeof directory + 16];
    snprintf(listing, sizeof listing, "ls -l %s", path);
    if (stat(path, &status) != 0) {
        const char *slash = strrchr(path, '/');
        if (!slash) snprintf(directory, sizeof directory, ".");
        else if (slash == path) snprintf(directory, sizeof directory, "/");
        else snprintf(directory, sizeof directory, "%.*s", (int)(slash - path), path);
        if (stat(directory, &status) != 0) {
            snprintf(out, size, "ask the administrator which group may use it (ls -ld %s)", directory);
            return;
        }
        snprintf(owner, sizeof owner, "its directory %s", directory);
        snprintf(listing, sizeof listing, "ls -ld %s", directory);
    }
    char name[64], buffer[4096];
    struct group entry, *found = NULL;
    if (getgrgid_r(status.st_gid, &entry, buffer, sizeof buffer, &found) == 0 && found)
        snprintf(name, sizeof name, "%s", found->gr_name);
    else
        snprintf(name, sizeof name, "%u", (unsigned)status.st_gid);
    int member = getegid() == status.st_gid;
    gid_t groups[256];
    int count = getgroups(256, groups);
    for (int i = 0; i < count && !member; i++) member = groups[i] == status.st_gid;
    if (member)
        snprintf(out, size,
                 "you are in the group '%s', which owns %s, yet may not connect: the mode (%s) gives the group no "
                 "access; l10nd makes its socket 0660",
                 name, owner, listing);
    else
        snprintf(out, size, "join the group '%s', which owns %s (sudo adduser $USER %s, then log in again)", name, owner,
                 name);
}

static int ms_left(const struct timespec *deadline);

/* Connects to `fixed`, or by the rule, before the deadline; the message names every path tried. */
static int connect_by_rule(const char *fixed, const struct timespec *deadline, int *fd, l10nd_error *err) {
    char paths[2][sizeof(((struct sockaddr_un *)0)->sun_path) + 64];
    int n;
    if (fixed) {
        snprintf(paths[0], sizeof paths[0], "%s", fixed);
        n = 1;
    } else {
        n = candidates(paths);
    }
    const char *path = paths[0];
    char before[300] = "";
    if (n == 2 && !exists(paths[0])) {
        snprintf(before, sizeof before, "tried %s: no such socket, then ", paths[0]);
        path = paths[1];
    }
    int error = 0;
    if (connect_path(path, ms_left(deadline), fd, &error) == 0) return L10ND_OK;
    if (error == EAGAIN || error == EINPROGRESS)
        return l10nd_fail(err, L10ND_ERR_TIMEOUT, "%sl10nd accepted no connection on %s within the time limit", before,
                          path);
    if (error == EACCES || error == EPERM) {
        char advice[700];
        group_advice(path, advice, sizeof advice);
        return l10nd_fail(err, L10ND_ERR_CONNECT, "%spermission denied connecting to %s: %s", before, path, advice);
    }
    return l10nd_fail(err, L10ND_ERR_CONNECT, "%sno l10nd is listening on %s: %s", before, path, strerror(error));
}

/* ---- time ---- */

static struct timespec deadline_after(int ms) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t); /* the condition variable waits on this clock too */
    t.tv_sec += ms / 1000;
    t.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    return t;
}

static int ms_left(const struct timespec *deadline) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long long ms = (long long)(deadline->tv_sec - now.tv_sec) * 1000 + (deadline->tv_nsec - now.tv_nsec) / 1000000;
    return ms < 0 ? 0 : ms > 1000000000 ? 1000000000 : (int)ms;
}

/* ---- buffered lines ---- */

typedef struct line_reader {
    char *data;
    size_t length, capacity;
} line_reader;

/* Returns a malloc'd line (without its newline) if one is buffered, else NULL. */
static char *take_line(line_reader *r) {
    char *newline = r->data ? memchr(r->data, '\n', r->length) : NULL;
    if (!newline) return NULL;
    size_t n = (size_t)(newline - r->data);
    char *line = malloc(n + 1);
    if (!line) return NULL;
    memcpy(line, r->data, n);
    line[n] = 0;
    if (n > 0 && line[n - 1] == '\r') line[n - 1] = 0;
    memmove(r->data, newline + 1, r->length - n - 1);
    r->length -= n + 1;
    return line;
}

/* Reads more bytes into r before the deadline. Descriptors that come with them (SCM_RIGHTS,
 * a `map` reply's slabs) are added to fds[*fd_count..253) when fds is given, else closed. */
static int fill_from(int fd, line_reader *r, const struct timespec *deadline, int *fds, size_t *fd_count,
                     l10nd_error *err) {
    if (r->length >= MAX_LINE) return l10nd_fail(err, L10ND_ERR_PROTOCOL, "a reply line is over %u bytes", MAX_LINE);
    if (r->capacity - r->length < 65536) {
        size_t capacity = r->capacity ? r->capacity * 2 : 131072;
        char *data = realloc(r->data, capacity);
        if (!data) return l10nd_fail(err, L10ND_ERR_MEMORY, "out of memory reading a reply");
        r->data = data;
        r->capacity = capacity;
    }
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int ready = poll(&p, 1, ms_left(deadline));
    if (ready == 0) return l10nd_fail(err, L10ND_ERR_TIMEOUT, "no reply from l10nd within the time limit");
    if (ready < 0) return errno == EINTR ? L10ND_OK : l10nd_fail(err, L10ND_ERR_IO, "poll: %s", strerror(errno));
    /* recvmsg even where none are expected: a plain recv would drop descriptors unseen. */
    union {
        char buffer[CMSG_SPACE(MAX_DESCRIPTORS * sizeof(int))];
        struct cmsghdr align;
    } control;
    struct iovec space = {.iov_base = r->data + r->length, .iov_len = r->capacity - r->length};
    struct msghdr message = {.msg_iov = &space, .msg_iovlen = 1, .msg_control = control.buffer,
                             .msg_controllen = sizeof control.buffer};
    ssize_t n = recvmsg(fd, &message, MSG_CMSG_CLOEXEC);
    int overflow = 0;
    for (struct cmsghdr *h = n >= 0 ? CMSG_FIRSTHDR(&message) : NULL; h; h = CMSG_NXTHDR(&message, h)) {
        if (h->cmsg_level != SOL_SOCKET || h->cmsg_type != SCM_RIGHTS) continue;
        size_t count = (h->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < count; i++) {
            int received;
            memcpy(&received, CMSG_DATA(h) + i * sizeof(int), sizeof received);
            if (fds && *fd_count < MAX_DESCRIPTORS) {
                fds[(*fd_count)++] = received;
            } else {
                close(received);
                overflow = 1;
            }
        }
    }
    if (n > 0 && (message.msg_flags & MSG_CTRUNC)) overflow = 1;
    if (n == 0) return l10nd_fail(err, L10ND_ERR_IO, "l10nd closed the connection");
    if (n < 0) return errno == EINTR || errno == EAGAIN ? L10ND_OK : l10nd_fail(err, L10ND_ERR_IO, "recv: %s", strerror(errno));
    r->length += (size_t)n;
    if (overflow && fds) return l10nd_fail(err, L10ND_ERR_PROTOCOL, "l10nd sent descriptors this connection cannot take");
    return L10ND_OK;
}

static int fill(int fd, line_reader *r, const struct timespec *deadline, l10nd_error *err) {
    return fill_from(fd, r, deadline, NULL, NULL, err);
}

/* Sends all of data before the deadline; *sent says how much went out. */
static int send_all(int fd, const char *data, size_t length, const struct timespec *deadline, size_t *sent,
                    l10nd_error *err) {
    *sent = 0;
    while (*sent < length) {
        struct pollfd p = {.fd = fd, .events = POLLOUT};
        int ready = poll(&p, 1, ms_left(deadline));
        if (ready == 0) return l10nd_fail(err, L10ND_ERR_TIMEOUT, "l10nd took no request within the time limit");
        if (ready < 0) {
            if (errno == EINTR) continue;
            return l10nd_fail(err, L10ND_ERR_IO, "poll: %s", strerror(errno));
        }
        ssize_t n = send(fd, data + *sent, length - *sent, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            return l10nd_fail(err, L10ND_ERR_IO, "send: %s", strerror(errno));
        }
        *sent += (size_t)n;
    }
    return L10ND_OK;
}

/* ---- the shared client ---- */

typedef struct waiter {
    long long id;
    unsigned long long connection; /* which connection its request went out on */
    json_object *reply;            /* set by the reader */
    int code;                      /* set when its connection broke */
    char message[256];
    struct waiter *next;
} waiter;

struct l10nd_client {
    char *path; /* NULL: the rule, applied again at each reconnect */
    int timeout_ms;
    pthread_mutex_t mu;
    pthread_cond_t changed;
    int writing;                 /* (mu) a thread holds the write turn: connects, sends */
    pthread_cond_t write_free;   /* the write turn was given back */
    int fd;                         /* -1: none */
    int broken;                     /* the connection must be replaced */
    int away;                       /* atomic: the last attempt at connecting failed (l10nd is away) */
    unsigned long long connection;  /* counts connections */
    int reading;                    /* a thread is the reader */
    long long next_id;
    waiter *waiters;
    line_reader input;              /* only the reader touches it */

    /* Mapped lookups. */
    int mapped;                     /* atomic: 0 in direct mode (L10N_MODE=direct, l10nd_set_mapped) */
    pthread_mutex_t watch_mu;       /* the watch connection and what follows: its holder reads it or maps */
    int watch_fd;                   /* -1: none (not yet, or l10nd went away) */
    line_reader watch_input;
    struct timespec watch_retry;    /* no attempt at the watch connection before */
    long long refused;              /* the announced generation a map failed at: asked again after a change */
    l10nd_error map_error;          /* the last mapping failure (code 0: none) */
    pthread_rwlock_t map_lock;      /* lookups read `current` under it; a swap writes */
    l10nd_mapping *current;         /* written with watch_mu and map_lock held */
    long long announced;            /* atomic: the newest generation an event or reply announced */
    l10nd_chains chains;            /* the daemon's chains of the generation mapped */
    int no_chains;                  /* atomic: the daemon has no `chain` (older than 1.7) */

    /* In-place misses and fallbacks waiting to be reported (miss_mu). */
    pthread_mutex_t miss_mu;
    json_object *misses;            /* batch request text (languages, table) -> batch request */
    size_t miss_count;
    int misses_sent;                /* whether a report went out yet */
    struct timespec miss_due;       /* no report before */
    size_t past_capacity, unsent;   /* keys not reported since the last line said so: no room, send failed */
    int drop_said;                  /* whether such a line was written yet */
    struct timespec drop_notice_due; /* no such line before (but at l10nd_close) */

    struct l10nd_client *previous, *next; /* in the list of open clients (fork_mu) */
};

/* ---- fork ----
 * A child of fork(2) shares its parent's sockets: a request either sends reaches the same
 * daemon connection, and replies go to whichever reads first (both time out). So the child
 * handler, run in the child right after the fork while it has one thread, gives each open
 * client fresh locks and no connection: its first call connects anew, and the parent's
 * sockets are closed in the child only (the parent's connections stay open). The list of
 * open clients is the library's one global state. */

static pthread_mutex_t fork_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
static l10nd_client *open_clients;

static void init_locks(l10nd_client *c) {
    pthread_mutex_init(&c->mu, NULL);
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC); /* a clock change moves no time limit */
    pthread_cond_init(&c->changed, &attributes);
    pthread_cond_init(&c->write_free, &attributes);
    pthread_condattr_destroy(&attributes);
    pthread_mutex_init(&c->watch_mu, NULL);
    pthread_rwlockattr_t preference;
    pthread_rwlockattr_init(&preference);
    /* A swap must not wait behind a stream of lookups (glibc prefers readers by default). */
    pthread_rwlockattr_setkind_np(&preference, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
    pthread_rwlock_init(&c->map_lock, &preference);
    pthread_rwlockattr_destroy(&preference);
    pthread_mutex_init(&c->chains.mu, NULL);
    pthread_mutex_init(&c->miss_mu, NULL);
}

static void before_fork(void) { pthread_mutex_lock(&fork_mu); }

static void after_fork_in_parent(void) { pthread_mutex_unlock(&fork_mu); }

static void after_fork_in_child(void) {
    for (l10nd_client *c = open_clients; c; c = c->next) {
        /* A lock a parent's thread held at the fork would stay held: each is made anew. The
         * waiters were on the stacks of the parent's threads, which the child does not have. */
        init_locks(c);
        if (c->fd >= 0) close(c->fd);
        c->fd = -1;
        c->broken = 0;
        c->reading = 0;
        c->writing = 0;
        c->waiters = NULL;
        c->input.length = 0;
        if (c->watch_fd >= 0) close(c->watch_fd);
        c->watch_fd = -1; /* the next lookup connects its own watch and maps again */
        c->watch_input.length = 0;
        c->watch_retry = (struct timespec){0};
        json_object_put(c->misses); /* the parent's to report */
        c->misses = json_object_new_object();
        c->miss_count = 0;
        c->past_capacity = c->unsent = 0; /* the parent says its own */
    }
    pthread_mutex_init(&fork_mu, NULL);
}

static void register_fork_handlers(void) { pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child); }

static void add_open_client(l10nd_client *c) {
    pthread_once(&fork_once, register_fork_handlers);
    pthread_mutex_lock(&fork_mu);
    c->next = open_clients;
    if (open_clients) open_clients->previous = c;
    open_clients = c;
    pthread_mutex_unlock(&fork_mu);
}

static void remove_open_client(l10nd_client *c) {
    pthread_mutex_lock(&fork_mu);
    if (c->previous) c->previous->next = c->next;
    else if (open_clients == c) open_clients = c->next;
    if (c->next) c->next->previous = c->previous;
    c->previous = c->next = NULL;
    pthread_mutex_unlock(&fork_mu);
}

static void fail_waiters(l10nd_client *c, unsigned long long connection, const char *why) {
    for (waiter *w = c->waiters; w; w = w->next)
        if (w->connection == connection && !w->reply && !w->code) {
            w->code = L10ND_ERR_IO;
            snprintf(w->message, sizeof w->message, "%s", why);
        }
}

static void remove_waiter(l10nd_client *c, waiter *target) {
    for (waiter **p = &c->waiters; *p; p = &(*p)->next)
        if (*p == target) {
            *p = target->next;
            return;
        }
}

/* With mu held: waits (until the deadline) for the write turn and takes it. */
static int take_write_turn(l10nd_client *c, const struct timespec *deadline, l10nd_error *err) {
    while (c->writing)
        if (pthread_cond_timedwait(&c->write_free, &c->mu, deadline) == ETIMEDOUT && c->writing)
            return l10nd_fail(err, L10ND_ERR_TIMEOUT,
                              "no reply from l10nd within %d ms (other threads' requests were being sent)",
                              c->timeout_ms);
    c->writing = 1;
    return L10ND_OK;
}

/* With mu held. Broadcast: a waiter woken by a signal may be timing out at that moment. */
static void give_write_turn(l10nd_client *c) {
    c->writing = 0;
    pthread_cond_broadcast(&c->write_free);
}

/* With the write turn and mu held: a working connection, or an error after one attempt at
 * connecting (the caller waits between attempts, holding nothing). */
static int ensure_connected(l10nd_client *c, const struct timespec *deadline, l10nd_error *err) {
    if (c->fd >= 0 && !c->broken) return L10ND_OK;
    while (c->reading) /* the reader still uses the old descriptor */
        if (pthread_cond_timedwait(&c->changed, &c->mu, deadline) == ETIMEDOUT)
            return l10nd_fail(err, L10ND_ERR_TIMEOUT, "no reply from l10nd within the time limit");
    if (c->fd >= 0) {
        fail_waiters(c, c->connection, "l10nd closed the connection");
        pthread_cond_broadcast(&c->changed);
        close(c->fd);
        c->fd = -1;
    }
    c->input.length = 0;
    int fd;
    int code = connect_by_rule(c->path, deadline, &fd, err);
    if (code) {
        /* Said at once: a report of in-place misses does not queue behind these attempts. */
        __atomic_store_n(&c->away, 1, __ATOMIC_RELEASE);
        return code;
    }
    __atomic_store_n(&c->away, 0, __ATOMIC_RELEASE);
    c->fd = fd;
    c->broken = 0;
    c->connection++;
    return L10ND_OK;
}

static void watch(l10nd_client *c, const struct timespec *deadline);

/* `value`'s first 100 bytes in double quotes into `out` (at least 403 bytes), as the Swift and
 * Python clients write a value that names no mode: a stray space shows, and '"', '\\' and
 * control characters are escaped (\\", \\\\, \\x0A), so one line stays one line. */
static void quote_mode(const char *value, char *out) {
    size_t n = 0;
    out[n++] = '"';
    for (size_t i = 0; value[i] && i < 100; i++) {
        unsigned char ch = (unsigned char)value[i];
        if (ch == '"' || ch == '\\') {
            out[n++] = '\\';
            out[n++] = (char)ch;
        } else if (ch < 0x20 || ch == 0x7f) {
            n += (size_t)snprintf(out + n, 5, "\\x%02X", ch);
        } else {
            out[n++] = (char)ch;
        }
    }
    out[n++] = '"';
    out[n] = 0;
}

/* L10N_MODE: direct, else mapped. Another value than mapped or direct is said once per process
 * on standard error, in the Swift client's words (cached, as there, is mapped mode). */
static int mode_is_mapped(const char *mode) {
    static int warned;
    if (!mode || !mode[0] || !strcmp(mode, "mapped")) return 1;
    if (!strcmp(mode, "direct")) return 0;
    if (!__atomic_exchange_n(&warned, 1, __ATOMIC_ACQ_REL)) {
        if (!strcmp(mode, "cached"))
            fprintf(stderr, "l10nd-client: L10N_MODE=cached is no longer a mode of its own; using mapped mode (the same "
                            "answers)\n");
        else {
            char quoted[403];
            quote_mode(mode, quoted);
            fprintf(stderr, "l10nd-client: L10N_MODE=%s is not a mode of this library (mapped, direct); using "
                            "mapped mode\n", quoted);
        }
    }
    return 1;
}

l10nd_client *l10nd_open(const char *socket_path, int timeout_ms, l10nd_error *err) {
    l10nd_client *c = calloc(1, sizeof *c);
    if (!c) {
        l10nd_fail(err, L10ND_ERR_MEMORY, "out of memory");
        return NULL;
    }
    c->fd = -1;
    c->timeout_ms = timeout_ms > 0 ? timeout_ms : DEFAULT_TIMEOUT_MS;
    c->next_id = 1;
    if (socket_path && !(c->path = strdup(socket_path))) {
        free(c);
        l10nd_fail(err, L10ND_ERR_MEMORY, "out of memory");
        return NULL;
    }
    init_locks(c);
    c->mapped = mode_is_mapped(getenv("L10N_MODE"));
    c->watch_fd = -1;
    c->refused = -1;
    if (!(c->misses = json_object_new_object())) {
        free(c->path);
        free(c);
        l10nd_fail(err, L10ND_ERR_MEMORY, "out of memory");
        return NULL;
    }
    add_open_client(c);
    struct timespec deadline = deadline_after(c->timeout_ms);
    pthread_mutex_lock(&c->mu);
    int code = take_write_turn(c, &deadline, err);
    if (!code) {
        code = ensure_connected(c, &deadline, err);
        give_write_turn(c);
    }
    pthread_mutex_unlock(&c->mu);
    if (code) {
        l10nd_close(c);
        return NULL;
    }
    watch(c, &deadline); /* maps now, so the first lookups need no round trip */
    return c;
}

static void send_misses(l10nd_client *c, json_object *misses, const struct timespec *deadline);
static void say_unreported(l10nd_client *c, int now);

void l10nd_close(l10nd_client *c) {
    if (!c) return;
    /* The last misses answered in place, for the report; a daemon gone or hung holds the close
     * up CLOSE_FLUSH_MS at most. Taken out of the client first: what cannot be sent now is
     * counted (no later report will send it), and said. */
    json_object *held = c->misses;
    c->misses = NULL;
    if (held && json_object_object_length(held)) {
        if (c->timeout_ms > CLOSE_FLUSH_MS) c->timeout_ms = CLOSE_FLUSH_MS;
        send_misses(c, held, NULL);
    } else {
        json_object_put(held);
    }
    say_unreported(c, 1);
    remove_open_client(c);
    if (c->fd >= 0) close(c->fd);
    if (c->watch_fd >= 0) close(c->watch_fd);
    l10nd_mapping_free(c->current);
    pthread_rwlock_destroy(&c->map_lock);
    pthread_mutex_destroy(&c->watch_mu);
    free(c->watch_input.data);
    l10nd_chains_clear(&c->chains);
    pthread_mutex_destroy(&c->chains.mu);
    pthread_mutex_destroy(&c->miss_mu);
    pthread_cond_destroy(&c->write_free);
    pthread_cond_destroy(&c->changed);
    pthread_mutex_destroy(&c->mu);
    free(c->input.data);
    free(c->path);
    free(c);
}

/* ---- reading replies (pure: Fuzz/Targets/c-reply.c feeds them anything) ---- */

/* One line from the daemon: 1 with *reply (owned by the caller) and its *id, or with *reply
 * NULL for an empty line (ignored); 0 when it is not a reply to any request. */
static int reply_for_line(const char *line, json_object **reply, long long *id) {
    *reply = NULL;
    if (!line[0]) return 1;
    json_object *parsed = json_tokener_parse(line), *member = NULL;
    if (!parsed || !json_object_object_get_ex(parsed, "id", &member) || !json_object_is_type(member, json_type_int)) {
        json_object_put(parsed);
        return 0;
    }
    *id = json_object_get_int64(member);
    *reply = parsed;
    return 1;
}

/* As the reader: reads until a whole line is in, hands it to its waiter. mu is held on entry
 * and exit, released while reading. */
static void read_one(l10nd_client *c, const struct timespec *deadline) {
    int fd = c->fd;
    unsigned long long connection = c->connection;
    c->reading = 1;
    pthread_mutex_unlock(&c->mu);
    l10nd_error e = {0};
    char *line = NULL;
    int code = L10ND_OK;
    while (!(line = take_line(&c->input)) && code == L10ND_OK) code = fill(fd, &c->input, deadline, &e);
    pthread_mutex_lock(&c->mu);
    c->reading = 0;
    if (line) {
        json_object *reply = NULL;
        long long value = 0;
        if (!reply_for_line(line, &reply, &value)) {
            /* A reply without our id: the stream is not what we think it is. */
            char why[200];
            snprintf(why, sizeof why, "l10nd sent a line that answers no request: %.150s", line);
            c->broken = 1;
            fail_waiters(c, connection, why);
        } else if (reply) {
            waiter *w = c->waiters;
            while (w && w->id != value) w = w->next;
            if (w) w->reply = reply;
            else json_object_put(reply); /* its caller gave up (timed out) */
        }
        free(line);
    } else if (code != L10ND_ERR_TIMEOUT && connection == c->connection) {
        c->broken = 1;
        fail_waiters(c, connection, e.message);
    }
    pthread_cond_broadcast(&c->changed);
}

/* Sleeps RECONNECT_MS, or what is left before the deadline if less; 0 when none is left. */
static int pause_before_reconnecting(const struct timespec *deadline) {
    int left = ms_left(deadline);
    if (left == 0) return 0;
    struct timespec pause = {.tv_nsec = (long)(left < RECONNECT_MS ? left : RECONNECT_MS) * 1000000L};
    while (nanosleep(&pause, &pause) != 0 && errno == EINTR) {
    }
    return 1;
}

/* Sends request (an object; its "id" is set here) and waits for its reply, until `deadline`:
 * the public call's one deadline, kept across reconnects and what the call asked before (the
 * watch connection's subscribe and map, a chain), so no call takes more than its time limit.
 * `patient`: a daemon that is not listening is waited for until the deadline (a restart: it
 * replaces its socket file a moment after the old one went away); else it fails at once (what
 * the library asks on its own behalf: a chain, a report of misses). */
static int call_with(l10nd_client *c, json_object *request, json_object **reply_out, int patient,
                     const struct timespec *call_deadline, l10nd_error *err) {
    *reply_out = NULL;
    struct timespec deadline = *call_deadline;
    waiter w;
    int resent = 0;
    for (;;) {
        memset(&w, 0, sizeof w);
        pthread_mutex_lock(&c->mu);
        int code = take_write_turn(c, &deadline, err);
        if (code) {
            pthread_mutex_unlock(&c->mu);
            return code;
        }
        code = ensure_connected(c, &deadline, err);
        if (code) {
            give_write_turn(c);
            pthread_mutex_unlock(&c->mu);
            /* Not listening (yet): tried again, with no lock held meanwhile, until the deadline. */
            if (code == L10ND_ERR_CONNECT && patient && pause_before_reconnecting(&deadline)) continue;
            return code;
        }
        w.id = c->next_id++;
        w.connection = c->connection;
        w.next = c->waiters;
        c->waiters = &w;
        int fd = c->fd;
        pthread_mutex_unlock(&c->mu);
        json_object_object_add(request, "id", json_object_new_int64(w.id));
        size_t length;
        const char *text = json_object_to_json_string_length(request, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &length);
        char *line = text ? malloc(length + 1) : NULL;
        size_t sent = 0;
        if (!line) {
            code = l10nd_fail(err, L10ND_ERR_MEMORY, "out of memory");
        } else {
            memcpy(line, text, length);
            line[length] = '\n';
            code = send_all(fd, line, length + 1, &deadline, &sent, err);
            free(line);
        }
        pthread_mutex_lock(&c->mu);
        give_write_turn(c);
        if (code) {
            remove_waiter(c, &w);
            /* A partial line leaves the stream unusable; a timeout before any byte does not. */
            if (sent > 0 || code == L10ND_ERR_IO) c->broken = 1;
            pthread_mutex_unlock(&c->mu);
            /* The daemon restarted since the last call: nothing was sent, so try once anew. */
            if (code == L10ND_ERR_IO && sent == 0 && !resent++) continue;
            return code;
        }
        break;
    }
    /* mu is held. */
    int code = L10ND_OK;
    for (;;) {
        if (w.reply || w.code) break;
        if (ms_left(&deadline) == 0) {
            code = l10nd_fail(err, L10ND_ERR_TIMEOUT, "no reply from l10nd within %d ms", c->timeout_ms);
            break;
        }
        if (!c->reading && !c->broken && w.connection == c->connection) {
            read_one(c, &deadline);
        } else if (!c->reading && w.connection != c->connection) {
            break; /* cannot happen: a replaced connection fails its waiters first */
        } else {
            pthread_cond_timedwait(&c->changed, &c->mu, &deadline);
        }
    }
    remove_waiter(c, &w);
    pthread_cond_broadcast(&c->changed); /* someone else may have to take over reading */
    pthread_mutex_unlock(&c->mu);
    if (w.reply) {
        *reply_out = w.reply;
        return L10ND_OK;
    }
    if (w.code) return l10nd_fail(err, w.code, "%s", w.message);
    if (!code) code = l10nd_fail(err, L10ND_ERR_IO, "the connection to l10nd was replaced");
    return code;
}

static int call(l10nd_client *c, json_object *request, json_object **reply_out, const struct timespec *deadline,
                l10nd_error *err) {
    return call_with(c, request, reply_out, 1, deadline, err);
}

/* ---- requests and replies ---- */

static json_object *base_request(const char *op, const l10nd_query *q) {
    json_object *r = json_object_new_object();
    json_object_object_add(r, "op", json_object_new_string(op));
    if (q->table) json_object_object_add(r, "table", json_object_new_string(q->table));
    if (q->languages && q->language_count) {
        json_object *langs = json_object_new_array();
        for (size_t i = 0; i < q->language_count; i++)
            json_object_array_add(langs, json_object_new_string(q->languages[i] ? q->languages[i] : ""));
        json_object_object_add(r, "lang", langs);
    }
    return r;
}

static int add_args(json_object *target, const char *name, const l10nd_arg *args, size_t count, l10nd_error *err) {
    json_object *list = json_object_new_array();
    json_object_object_add(target, name, list);
    for (size_t i = 0; i < count; i++) {
        switch (args[i].type) {
        case L10ND_ARG_STRING:
            if (!args[i].string) return l10nd_fail(err, L10ND_ERR_ARGUMENT, "argument %zu is a NULL string", i + 1);
            json_object_array_add(list, json_object_new_string(args[i].string));
            break;
        case L10ND_ARG_INT: json_object_array_add(list, json_object_new_int64(args[i].integer)); break;
        case L10ND_ARG_DOUBLE: json_object_array_add(list, json_object_new_double(args[i].number)); break;
        default: return l10nd_fail(err, L10ND_ERR_ARGUMENT, "argument %zu has an unknown type", i + 1);
        }
    }
    return L10ND_OK;
}

/* ok:false → L10ND_ERR_DAEMON with "code: message". */
static int check_ok(json_object *reply, l10nd_error *err) {
    json_object *ok;
    if (json_object_object_get_ex(reply, "ok", &ok) && json_object_is_type(ok, json_type_boolean) &&
        json_object_get_boolean(ok))
        return L10ND_OK;
    json_object *error, *code = NULL, *message = NULL;
    if (json_object_object_get_ex(reply, "error", &error)) {
        json_object_object_get_ex(error, "code", &code);
        json_object_object_get_ex(error, "message", &message);
    }
    return l10nd_fail(err, L10ND_ERR_DAEMON, "%s: %s", code ? json_object_get_string(code) : "unknown",
                message ? json_object_get_string(message) : "l10nd refused the request");
}

static char *copy_string(json_object *value, int *bad) {
    if (!value || json_object_is_type(value, json_type_null)) return NULL;
    if (!json_object_is_type(value, json_type_string)) {
        *bad = 1;
        return NULL;
    }
    char *s = strdup(json_object_get_string(value));
    if (!s) *bad = 1;
    return s;
}

void l10nd_result_free(l10nd_result *r) {
    if (!r) return;
    free(r->value);
    free(r->lang);
    free(r->formatted);
    memset(r, 0, sizeof *r);
}

/* A lookup's reply into *result (zeroed on entry by the caller): L10ND_OK with value (and,
 * when formatted is wanted, formatted) set, or an error with *result left zeroed. */
static int read_lookup_reply(json_object *reply, int want_formatted, l10nd_result *result, l10nd_error *err) {
    int code = check_ok(reply, err);
    if (code) return code;
    json_object *value = NULL, *found = NULL, *lang = NULL, *formatted = NULL, *generation = NULL;
    json_object_object_get_ex(reply, "value", &value);
    json_object_object_get_ex(reply, "found", &found);
    json_object_object_get_ex(reply, "lang", &lang);
    json_object_object_get_ex(reply, "formatted", &formatted);
    json_object_object_get_ex(reply, "generation", &generation);
    int bad = !value || !found || !json_object_is_type(found, json_type_boolean);
    result->value = copy_string(value, &bad);
    result->lang = copy_string(lang, &bad);
    result->formatted = copy_string(formatted, &bad);
    result->found = found && json_object_get_boolean(found);
    result->generation = generation ? json_object_get_int64(generation) : 0;
    if (bad || !result->value || (want_formatted && !result->formatted)) {
        l10nd_result_free(result);
        return l10nd_fail(err, L10ND_ERR_PROTOCOL, "l10nd's lookup reply lacks a member%s",
                    want_formatted ? " (finished strings need protocol 1.4)" : "");
    }
    return L10ND_OK;
}

/* A batch's reply into results[0..key_count) (zeroed by the caller): one value per key, or an
 * error with every result left zeroed. */
static int read_batch_reply(json_object *reply, size_t key_count, l10nd_result *results, l10nd_error *err) {
    int code = check_ok(reply, err);
    if (code) return code;
    json_object *values = NULL, *found = NULL, *generation = NULL;
    json_object_object_get_ex(reply, "values", &values);
    json_object_object_get_ex(reply, "found", &found);
    json_object_object_get_ex(reply, "generation", &generation);
    int bad = !values || !found || !json_object_is_type(values, json_type_array) ||
              !json_object_is_type(found, json_type_array) || json_object_array_length(values) != key_count ||
              json_object_array_length(found) != key_count;
    for (size_t i = 0; i < key_count && !bad; i++) {
        results[i].value = copy_string(json_object_array_get_idx(values, i), &bad);
        results[i].found = json_object_get_boolean(json_object_array_get_idx(found, i));
        results[i].generation = generation ? json_object_get_int64(generation) : 0;
        if (!results[i].value) bad = 1;
    }
    if (bad) {
        for (size_t i = 0; i < key_count; i++) l10nd_result_free(&results[i]);
        return l10nd_fail(err, L10ND_ERR_PROTOCOL, "l10nd's batch reply does not list one value per key");
    }
    return L10ND_OK;
}

static int valid_count(const char *s) {
    size_t i = 0, digits = 0;
    if (s[i] == '-') i++;
    for (; s[i] >= '0' && s[i] <= '9'; i++) digits++;
    if (s[i] == '.')
        for (i++; s[i] >= '0' && s[i] <= '9'; i++) digits++;
    return digits > 0 && s[i] == 0;
}

/* ---- mapped lookups ---- */

static void announce(l10nd_client *c, long long generation) {
    long long seen = __atomic_load_n(&c->announced, __ATOMIC_ACQUIRE);
    while (generation > seen &&
           !__atomic_compare_exchange_n(&c->announced, &seen, generation, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    }
}

/* With watch_mu held: makes m (or none) the generation lookups read; the old one is unmapped
 * once the write lock shows no lookup is reading it. */
static void install(l10nd_client *c, l10nd_mapping *m) {
    /* A generation serving the segments the last one served keeps its chains (l10nd_chains.h). */
    l10nd_mapping_adopt_fingerprint(m, c->current);
    pthread_rwlock_wrlock(&c->map_lock);
    l10nd_mapping *old = c->current;
    c->current = m;
    pthread_rwlock_unlock(&c->map_lock);
    l10nd_mapping_free(old);
}

static void close_watch(l10nd_client *c) {
    if (c->watch_fd >= 0) close(c->watch_fd);
    c->watch_fd = -1;
    c->watch_input.length = 0;
}

/* With watch_mu held: takes the watch connection's lines, announcing each event's generation,
 * until a reply (not an event) is in *reply — waiting until `deadline` for one when `reply`
 * is given, else only reading what is there now. A `map` reply's descriptors go to fds. */
static int watch_read(l10nd_client *c, const struct timespec *deadline, json_object **reply, int *fds,
                      size_t *fd_count, l10nd_error *err) {
    struct timespec now = deadline_after(0);
    for (;;) {
        char *line = take_line(&c->watch_input);
        if (line) {
            json_object *message = json_tokener_parse(line), *kind, *generation;
            free(line);
            if (message && json_object_object_get_ex(message, "event", &kind)) {
                if (json_object_object_get_ex(message, "generation", &generation) &&
                    json_object_is_type(generation, json_type_int))
                    announce(c, json_object_get_int64(generation));
                json_object_put(message);
                continue;
            }
            if (!message || !reply) {
                json_object_put(message);
                return l10nd_fail(err, L10ND_ERR_PROTOCOL, "l10nd sent the watch connection a line it did not ask for");
            }
            *reply = message;
            return L10ND_OK;
        }
        int code = fill_from(c->watch_fd, &c->watch_input, reply ? deadline : &now, fds, fd_count, err);
        if (code == L10ND_ERR_TIMEOUT && !reply) { /* nothing more now: no failure to report */
            if (err) *err = (l10nd_error){0};
            return L10ND_OK;
        }
        if (code) return code;
    }
}

/* With watch_mu held: sends `request` on the watch connection and waits for its reply. */
static int watch_ask(l10nd_client *c, const char *request, const struct timespec *deadline, json_object **reply,
                     int *fds, size_t *fd_count, l10nd_error *err) {
    size_t sent;
    int code = send_all(c->watch_fd, request, strlen(request), deadline, &sent, err);
    return code ? code : watch_read(c, deadline, reply, fds, fd_count, err);
}

/* With watch_mu held: asks `map` and installs what it hands over. A refusal (a daemon older
 * than 1.6, `unavailable`) or a damaged set leaves lookups to the daemon until the next
 * change; only a broken connection is returned. */
static int map_now(l10nd_client *c, const struct timespec *deadline, l10nd_error *err) {
    int fds[MAX_DESCRIPTORS];
    size_t fd_count = 0;
    json_object *reply = NULL;
    int code = watch_ask(c, "{\"op\":\"map\"}\n", deadline, &reply, fds, &fd_count, err);
    l10nd_mapping *m = NULL;
    if (!code) code = check_ok(reply, err);
    if (!code) code = l10nd_mapping_make(reply, fds, fd_count, &m, err); /* closes the descriptors */
    else
        for (size_t i = 0; i < fd_count; i++) close(fds[i]);
    json_object_put(reply);
    if (code == L10ND_ERR_IO || code == L10ND_ERR_TIMEOUT) return code;
    if (code) {
        c->refused = __atomic_load_n(&c->announced, __ATOMIC_ACQUIRE);
        install(c, NULL);
        return L10ND_OK;
    }
    announce(c, l10nd_mapping_generation(m));
    install(c, m);
    c->map_error.code = 0;
    c->map_error.message[0] = 0;
    return L10ND_OK;
}

/* With watch_mu held: a watch connection to (perhaps another) daemon, subscribed, and its
 * generation mapped. What an earlier daemon said is no longer trusted. */
static int watch_connect(l10nd_client *c, const struct timespec *deadline, l10nd_error *err) {
    int code = connect_by_rule(c->path, deadline, &c->watch_fd, err);
    if (code) return code;
    json_object *reply = NULL;
    code = watch_ask(c, "{\"op\":\"subscribe\"}\n", deadline, &reply, NULL, NULL, err);
    if (!code) code = check_ok(reply, err);
    json_object_put(reply);
    if (code) return code;
    install(c, NULL);
    __atomic_store_n(&c->away, 0, __ATOMIC_RELEASE); /* l10nd is back: in-place misses are sent again */
    /* Another daemon counts its generations anew: its chains are asked anew, and it may know `chain`. */
    l10nd_chains_clear(&c->chains);
    __atomic_store_n(&c->no_chains, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&c->announced, 0, __ATOMIC_RELEASE);
    c->refused = -1;
    return map_now(c, deadline, err);
}

/* Before a mapped lookup: reads the watch connection's events and maps a newer generation, or
 * (not more often than every WATCH_RETRY_MS) connects it again after l10nd went away. Skipped
 * when another thread is at it: its lookup reads what that thread leaves. */
static void watch(l10nd_client *c, const struct timespec *deadline) {
    if (!__atomic_load_n(&c->mapped, __ATOMIC_ACQUIRE) || pthread_mutex_trylock(&c->watch_mu)) return;
    l10nd_error e = {0};
    int code = L10ND_OK;
    if (c->watch_fd < 0) {
        if (ms_left(&c->watch_retry) == 0) code = watch_connect(c, deadline, &e);
    } else {
        code = watch_read(c, NULL, NULL, NULL, NULL, &e);
        long long announced = __atomic_load_n(&c->announced, __ATOMIC_ACQUIRE);
        if (!code && (!c->current || l10nd_mapping_generation(c->current) < announced) && c->refused < announced)
            code = map_now(c, deadline, &e);
    }
    if (code) {
        /* l10nd went away: the last generation mapped answers until a new watch maps again. */
        close_watch(c);
        c->watch_retry = deadline_after(WATCH_RETRY_MS);
    }
    if (e.code) c->map_error = e;
    pthread_mutex_unlock(&c->watch_mu);
}

/* A lookup of each of `keys` in the query's one language from its own mapped segment: 1 when
 * every key is there as a plain entry (results filled), 0 when the chain must say. */
static int own_answers(l10nd_client *c, const l10nd_query *q, const char *const *keys, size_t key_count,
                       l10nd_result *results, l10nd_error *e) {
    if (q->language_count != 1 || !q->languages || !q->languages[0]) return 0;
    int answered = 1;
    pthread_rwlock_rdlock(&c->map_lock);
    const l10nd_mapping *m = c->current;
    if (!m || l10nd_mapping_generation(m) < __atomic_load_n(&c->announced, __ATOMIC_ACQUIRE)) answered = 0;
    for (size_t i = 0; i < key_count && answered; i++) {
        int found = l10nd_mapping_probe(m, q->languages[0], q->table, keys[i], &results[i].value, e);
        results[i].found = 1;
        results[i].generation = l10nd_mapping_generation(m);
        answered = found == L10ND_PROBE_FOUND && (results[i].lang = strdup(q->languages[0]));
    }
    pthread_rwlock_unlock(&c->map_lock);
    if (!answered)
        for (size_t i = 0; i < key_count; i++) l10nd_result_free(&results[i]);
    return answered;
}

/* The daemon's chain for the query (named `name`) in `generation` (of `fingerprint`), asked
 * now and kept: a reference the caller releases, or NULL (the lookup asks the daemon). */
static l10nd_chain *ask_chain(l10nd_client *c, const l10nd_query *q, long long generation,
                              l10nd_fingerprint *fingerprint, const char *name, size_t name_length,
                              const struct timespec *deadline) {
    json_object *request = base_request("chain", q), *reply = NULL, *ok, *error, *code, *replied;
    int failed = call_with(c, request, &reply, 0, deadline, NULL);
    json_object_put(request);
    if (failed) return NULL;
    l10nd_chain *chain = NULL;
    if (!json_object_object_get_ex(reply, "ok", &ok) || !json_object_get_boolean(ok)) {
        const char *refusal = json_object_object_get_ex(reply, "error", &error) &&
                                      json_object_object_get_ex(error, "code", &code) &&
                                      json_object_is_type(code, json_type_string)
                                  ? json_object_get_string(code)
                                  : "";
        if (!strcmp(refusal, "unknown_op")) __atomic_store_n(&c->no_chains, 1, __ATOMIC_RELEASE);
        /* A tag the daemon refuses: every such lookup is asked, and refused as the daemon does. */
        else if (!strcmp(refusal, "bad_request")) chain = l10nd_chain_make(NULL, fingerprint, name, name_length, NULL);
    } else if (json_object_object_get_ex(reply, "generation", &replied) &&
               json_object_is_type(replied, json_type_int) && json_object_get_int64(replied) != generation) {
        announce(c, json_object_get_int64(replied)); /* newer: mapped at the next lookup, asked meanwhile */
    } else {
        chain = l10nd_chain_make(reply, fingerprint, name, name_length, NULL);
    }
    json_object_put(reply);
    if (chain) l10nd_chains_keep(&c->chains, chain);
    return chain;
}

/* Writes one line on standard error counting the keys answered in place that could not be
 * reported since the last such line -- at most every MISS_NOTICE_MS, unless `now` (at
 * l10nd_close): a report cut short is said, never silent, and a long outage says it once a
 * minute, not once a lookup. */
static void say_unreported(l10nd_client *c, int now) {
    pthread_mutex_lock(&c->miss_mu);
    size_t past_capacity = c->past_capacity, unsent = c->unsent;
    int due = (past_capacity || unsent) && (now || !c->drop_said || ms_left(&c->drop_notice_due) == 0);
    if (due) {
        c->past_capacity = c->unsent = 0;
        c->drop_said = 1;
        c->drop_notice_due = deadline_after(MISS_NOTICE_MS);
    }
    pthread_mutex_unlock(&c->miss_mu);
    if (due)
        fprintf(stderr,
                "l10nd-client: %zu misses and fallbacks answered in place were not reported to l10nd's missing-key "
                "report (%zu past the %d keys that may wait, %zu that could not be sent)\n",
                past_capacity + unsent, past_capacity, MISS_CAPACITY, unsent);
}

/* With miss_mu held: the list of keys waiting to be reported for the batch request `name`
 * (made like `like`: its op, table and lang), or NULL when the client keeps none any more
 * (it is closing). */
static json_object *held_keys(l10nd_client *c, const char *name, json_object *like) {
    json_object *request, *list;
    if (!c->misses) return NULL;
    if (!json_object_object_get_ex(c->misses, name, &request)) {
        if (!(request = json_object_new_object())) return NULL;
        json_object_object_foreach(like, field, value) {
            if (strcmp(field, "keys") && strcmp(field, "id")) json_object_object_add(request, field, json_object_get(value));
        }
        json_object_object_add(request, "keys", json_object_new_array());
        json_object_object_add(c->misses, name, request);
    }
    return json_object_object_get_ex(request, "keys", &list) ? list : NULL;
}

/* With miss_mu held: `key` joins `list` (NULL: none is kept) unless it is there; past
 * MISS_CAPACITY keys waiting, or with no list, it is counted as not reported. */
static void hold_key(l10nd_client *c, json_object *list, const char *key, size_t *not_held) {
    if (!list) {
        (*not_held)++;
        return;
    }
    size_t length = json_object_array_length(list), k = 0;
    while (k < length && strcmp(json_object_get_string(json_object_array_get_idx(list, k)), key)) k++;
    if (k < length) return;
    if (c->miss_count >= MISS_CAPACITY) {
        c->past_capacity++;
        return;
    }
    json_object_array_add(list, json_object_new_string(key));
    c->miss_count++;
}

/* Sends each batch request of `misses` (taken out of the client, freed here) and drops the
 * replies: the daemon counts a batch's misses and fallbacks as it counts lookups'. A request
 * that could not reach l10nd (not listening: nothing was sent) is held again for the next
 * report; one that failed otherwise, or while the client closes, is counted as not sent. */
static void send_misses(l10nd_client *c, json_object *misses, const struct timespec *deadline) {
    json_object_object_foreach(misses, name, request) {
        json_object *reply = NULL, *keys;
        struct timespec own = deadline_after(c->timeout_ms);
        int code = call_with(c, request, &reply, 0, deadline ? deadline : &own, NULL);
        if (!code) {
            json_object_put(reply);
            continue;
        }
        if (!json_object_object_get_ex(request, "keys", &keys)) continue;
        pthread_mutex_lock(&c->miss_mu);
        json_object *list = code == L10ND_ERR_CONNECT ? held_keys(c, name, request) : NULL;
        for (size_t i = 0; i < json_object_array_length(keys); i++)
            hold_key(c, list, json_object_get_string(json_object_array_get_idx(keys, i)), &c->unsent);
        pthread_mutex_unlock(&c->miss_mu);
    }
    json_object_put(misses);
    say_unreported(c, 0);
}

/* Notes the keys of `keys` marked in `report` (answered in place as misses or fallbacks) for
 * the missing-key report, and sends what waits when MISS_INTERVAL_MS has passed since the last
 * report. A key noted again before it is sent is sent once. */
static void report_misses(l10nd_client *c, const l10nd_query *q, const char *const *keys, size_t key_count,
                          const unsigned char *report, const struct timespec *deadline) {
    json_object *batch = base_request("batch", q);
    const char *name = json_object_to_json_string_ext(batch, JSON_C_TO_STRING_PLAIN);
    json_object *due = NULL;
    pthread_mutex_lock(&c->miss_mu);
    json_object *list = name ? held_keys(c, name, batch) : NULL;
    for (size_t i = 0; i < key_count; i++)
        if (report[i]) hold_key(c, list, keys[i], &c->unsent);
    /* While l10nd is away they wait (up to MISS_CAPACITY): a lookup answered in place never
     * waits behind another thread's attempts at reconnecting to send them. */
    if ((!c->misses_sent || ms_left(&c->miss_due) == 0) && !__atomic_load_n(&c->away, __ATOMIC_ACQUIRE)) {
        json_object *fresh = json_object_new_object();
        if (fresh) {
            due = c->misses;
            c->misses = fresh;
            c->miss_count = 0;
            c->misses_sent = 1;
            c->miss_due = deadline_after(MISS_INTERVAL_MS);
        }
    }
    pthread_mutex_unlock(&c->miss_mu);
    json_object_put(batch);
    if (due) send_misses(c, due, deadline);
}

/* Every key along the daemon's chain for the query from the mapped generation: 1 when each
 * is answered in place (results filled as the daemon would: value, found, lang), 0 when the
 * daemon must answer. */
static int chain_answers(l10nd_client *c, const l10nd_query *q, const char *const *keys, size_t key_count,
                         l10nd_result *results, const struct timespec *deadline, l10nd_error *e) {
    if (__atomic_load_n(&c->no_chains, __ATOMIC_ACQUIRE)) return 0;
    pthread_rwlock_rdlock(&c->map_lock);
    long long generation = c->current ? l10nd_mapping_generation(c->current) : -1;
    l10nd_fingerprint *fingerprint =
        c->current ? l10nd_fingerprint_retain(l10nd_mapping_fingerprint(c->current)) : NULL;
    pthread_rwlock_unlock(&c->map_lock);
    if (generation < 0 || generation < __atomic_load_n(&c->announced, __ATOMIC_ACQUIRE)) {
        l10nd_fingerprint_release(fingerprint);
        return 0;
    }
    size_t name_length;
    char *name = l10nd_chain_name(q, &name_length);
    unsigned char *report = calloc(key_count ? key_count : 1, 1);
    l10nd_chain *chain = name && report ? l10nd_chains_get(&c->chains, fingerprint, name, name_length) : NULL;
    if (!chain && name && report) chain = ask_chain(c, q, generation, fingerprint, name, name_length, deadline);
    free(name);
    l10nd_fingerprint_release(fingerprint);
    int answered = chain != NULL, reported = 0;
    pthread_rwlock_rdlock(&c->map_lock);
    const l10nd_mapping *m = c->current;
    /* A generation the chain holds for (the same fingerprint), and still the newest announced. */
    if (!m || !chain || !l10nd_fingerprint_equal(l10nd_mapping_fingerprint(m), chain->fingerprint) ||
        l10nd_mapping_generation(m) < __atomic_load_n(&c->announced, __ATOMIC_ACQUIRE))
        answered = 0;
    for (size_t i = 0; i < key_count && answered; i++) {
        int one = 0;
        answered = l10nd_chain_answer(m, chain, q->table, keys[i], &results[i], &one, e) == 1;
        report[i] = (unsigned char)one;
        reported |= one;
    }
    pthread_rwlock_unlock(&c->map_lock);
    l10nd_chain_release(chain);
    if (!answered)
        for (size_t i = 0; i < key_count; i++) l10nd_result_free(&results[i]);
    else if (reported)
        report_misses(c, q, keys, key_count, report, deadline);
    free(report);
    return answered;
}

/* Each of `keys` from the mapped generation: 1 when every one is answered in place (results
 * filled), 0 when the daemon must answer (a count, arguments, a plural entry...). */
static int mapped_answers(l10nd_client *c, const l10nd_query *q, const char *const *keys, size_t key_count,
                          l10nd_result *results, const struct timespec *deadline) {
    if (!__atomic_load_n(&c->mapped, __ATOMIC_ACQUIRE) || q->count || q->arg_count) return 0;
    watch(c, deadline);
    l10nd_error e = {0};
    int answered = own_answers(c, q, keys, key_count, results, &e);
    if (!answered && !e.code) answered = chain_answers(c, q, keys, key_count, results, deadline, &e);
    if (e.code) { /* a damaged segment: said by l10nd_mapping_state, and the daemon answers */
        pthread_mutex_lock(&c->watch_mu);
        c->map_error = e;
        pthread_mutex_unlock(&c->watch_mu);
    }
    return answered;
}

int l10nd_set_mapped(l10nd_client *c, int mapped) {
    if (!c) return L10ND_ERR_ARGUMENT;
    __atomic_store_n(&c->mapped, mapped != 0, __ATOMIC_RELEASE);
    if (!mapped) {
        pthread_mutex_lock(&c->watch_mu);
        close_watch(c);
        install(c, NULL);
        pthread_mutex_unlock(&c->watch_mu);
    } else {
        struct timespec deadline = deadline_after(c->timeout_ms);
        watch(c, &deadline);
    }
    return L10ND_OK;
}

int l10nd_mapping_state(l10nd_client *c, long long *generation, l10nd_error *err) {
    if (!c || !generation) return l10nd_fail(err, L10ND_ERR_ARGUMENT, "client and generation are required");
    struct timespec deadline = deadline_after(c->timeout_ms);
    watch(c, &deadline);
    pthread_rwlock_rdlock(&c->map_lock);
    const l10nd_mapping *m = c->current;
    *generation = m && l10nd_mapping_generation(m) >= __atomic_load_n(&c->announced, __ATOMIC_ACQUIRE)
                      ? l10nd_mapping_generation(m)
                      : -1;
    pthread_rwlock_unlock(&c->map_lock);
    pthread_mutex_lock(&c->watch_mu);
    l10nd_error last = c->map_error;
    pthread_mutex_unlock(&c->watch_mu);
    if (last.code) {
        if (err) *err = last;
        return last.code;
    }
    return L10ND_OK;
}

int l10nd_lookup(l10nd_client *c, const l10nd_query *q, l10nd_result *result, l10nd_error *err) {
    if (result) memset(result, 0, sizeof *result);
    if (!c || !q || !q->key || !result) return l10nd_fail(err, L10ND_ERR_ARGUMENT, "client, query, key and result are required");
    if (q->count && !valid_count(q->count)) return l10nd_fail(err, L10ND_ERR_ARGUMENT, "count \"%.100s\" is not a decimal number", q->count);
    /* One deadline for the whole call: the watch's reconnect and map, a chain asked, the lookup. */
    struct timespec deadline = deadline_after(c->timeout_ms);
    if (mapped_answers(c, q, &q->key, 1, result, &deadline)) return L10ND_OK;
    json_object *request = base_request("lookup", q);
    json_object_object_add(request, "key", json_object_new_string(q->key));
    if (q->count) json_object_object_add(request, "count", json_object_new_string(q->count));
    int code = q->arg_count ? add_args(request, "args", q->args, q->arg_count, err) : L10ND_OK;
    json_object *reply = NULL;
    if (!code) code = call(c, request, &reply, &deadline, err);
    json_object_put(request);
    if (code) return code;
    code = read_lookup_reply(reply, q->arg_count > 0, result, err);
    json_object_put(reply);
    if (!code) announce(c, result->generation); /* an older mapped generation answers no more */
    return code;
}

int l10nd_batch(l10nd_client *c, const l10nd_query *q, const char *const *keys, size_t key_count,
                l10nd_result *results, l10nd_error *err) {
    if (!c || !q || (!keys && key_count) || (!results && key_count))
        return l10nd_fail(err, L10ND_ERR_ARGUMENT, "client, query, keys and results are required");
    memset(results, 0, key_count * sizeof *results);
    json_object *request = base_request("batch", q);
    json_object *list = json_object_new_array();
    json_object_object_add(request, "keys", list);
    for (size_t i = 0; i < key_count; i++) {
        if (!keys[i]) {
            json_object_put(request);
            return l10nd_fail(err, L10ND_ERR_ARGUMENT, "key %zu is NULL", i + 1);
        }
        json_object_array_add(list, json_object_new_string(keys[i]));
    }
    struct timespec deadline = deadline_after(c->timeout_ms);
    if (mapped_answers(c, q, keys, key_count, results, &deadline)) {
        json_object_put(request);
        return L10ND_OK;
    }
    json_object *reply = NULL;
    int code = call(c, request, &reply, &deadline, err);
    json_object_put(request);
    if (code) return code;
    code = read_batch_reply(reply, key_count, results, err);
    json_object_put(reply);
    if (!code && key_count) announce(c, results[0].generation);
    return code;
}

/* ---- subscriptions ---- */

struct l10nd_subscription {
    char *path;
    int timeout_ms;
    int fd;
    line_reader input;
};

static int subscribe_on(l10nd_subscription *s, l10nd_error *err) {
    if (s->fd >= 0) close(s->fd);
    s->fd = -1;
    s->input.length = 0;
    struct timespec deadline = deadline_after(s->timeout_ms);
    int code = connect_by_rule(s->path, &deadline, &s->fd, err);
    if (code) return code;
    static const char request[] = "{\"op\":\"subscribe\"}\n";
    size_t sent;
    if ((code = send_all(s->fd, request, sizeof request - 1, &deadline, &sent, err))) return code;
    char *line;
    while (!(line = take_line(&s->input)))
        if ((code = fill(s->fd, &s->input, &deadline, err))) return code;
    json_object *reply = json_tokener_parse(line);
    free(line);
    code = reply ? check_ok(reply, err) : l10nd_fail(err, L10ND_ERR_PROTOCOL, "l10nd's subscribe reply is not JSON");
    json_object_put(reply);
    return code;
}

/* One line on a subscription: 1 with *event filled when it is a change event; 0 for
 * anything else (the subscribe reply, a line this version does not know), which is skipped. */
static int read_event(const char *line, l10nd_event *event) {
    json_object *message = json_tokener_parse(line);
    json_object *kind, *generation;
    /* "event" must be the string "changed": json-c gives no string for a null member (strcmp
     * of NULL crashed on "event":null, found by Fuzz/Targets/c-reply.c), and would spell a
     * number or an array as its JSON. */
    int is_event = message && json_object_object_get_ex(message, "event", &kind) &&
                   json_object_is_type(kind, json_type_string) && !strcmp(json_object_get_string(kind), "changed");
    if (is_event) {
        event->generation =
            json_object_object_get_ex(message, "generation", &generation) ? json_object_get_int64(generation) : -1;
        event->reconnected = 0;
    }
    json_object_put(message);
    return is_event;
}

l10nd_subscription *l10nd_subscribe(const char *socket_path, int timeout_ms, l10nd_error *err) {
    l10nd_subscription *s = calloc(1, sizeof *s);
    if (!s || (socket_path && !(s->path = strdup(socket_path)))) {
        free(s);
        l10nd_fail(err, L10ND_ERR_MEMORY, "out of memory");
        return NULL;
    }
    s->fd = -1;
    s->timeout_ms = timeout_ms > 0 ? timeout_ms : DEFAULT_TIMEOUT_MS;
    if (subscribe_on(s, err)) {
        l10nd_unsubscribe(s);
        return NULL;
    }
    return s;
}

int l10nd_next_event(l10nd_subscription *s, int timeout_ms, l10nd_event *event, l10nd_error *err) {
    if (!s || !event) return l10nd_fail(err, L10ND_ERR_ARGUMENT, "subscription and event are required");
    struct timespec deadline = deadline_after(timeout_ms);
    for (;;) {
        char *line = s->fd >= 0 ? take_line(&s->input) : NULL;
        if (line) {
            int is_event = read_event(line, event);
            free(line);
            if (is_event) return L10ND_OK;
            continue;
        }
        int code = s->fd >= 0 ? fill(s->fd, &s->input, &deadline, err) : L10ND_ERR_IO;
        if (code == L10ND_ERR_IO) {
            /* The daemon went away: renew the subscription, and say that anything may have changed. */
            while ((code = subscribe_on(s, err)) != L10ND_OK) {
                if (!pause_before_reconnecting(&deadline)) return code;
            }
            event->generation = -1;
            event->reconnected = 1;
            return L10ND_OK;
        }
        if (code) return code;
    }
}

void l10nd_unsubscribe(l10nd_subscription *s) {
    if (!s) return;
    if (s->fd >= 0) close(s->fd);
    free(s->input.data);
    free(s->path);
    free(s);
}
