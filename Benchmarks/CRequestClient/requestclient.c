/*
 * An outside client for the request-path rows of issue 14: the same C code asks l10nd (its
 * binary frames, docs/PROTOCOL.md) and Redis (RESP GET) for one key over a Unix socket, so
 * the two servers are measured with one client's costs.
 *
 *   requestclient l10nd SOCKET COUNT DEPTH CONNECTIONS KEY LANGUAGE
 *   requestclient redis SOCKET COUNT DEPTH CONNECTIONS KEY VALUE     (SETs KEY to VALUE first)
 *
 * Each of CONNECTIONS connections keeps DEPTH requests in flight until COUNT replies have come
 * back in all; whenever replies arrive, as many new requests go out in one write. One
 * connection is served with blocking reads (the way pingpong.c runs), several with poll.
 * Prints one line:
 *   requestclient replies=N seconds=S found=F
 * where F counts the replies that carried the value (l10nd: the found flag; Redis: a bulk
 * string), so a run that got errors is seen. Compiled and run by l10nd-bench
 * (RequestPathBenchmark.swift).
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

enum { MAX_CONNECTIONS = 256, BUFFER = 1 << 16 };

struct connection {
    int fd;
    unsigned char input[BUFFER];
    size_t used;
    long in_flight;
};

static int redis_mode;
static unsigned char request[512];
static size_t request_size;
static long found;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void put32(unsigned char *at, uint32_t value) {
    at[0] = (unsigned char)(value >> 24);
    at[1] = (unsigned char)(value >> 16);
    at[2] = (unsigned char)(value >> 8);
    at[3] = (unsigned char)value;
}

static uint32_t get32(const unsigned char *at) {
    return (uint32_t)at[0] << 24 | (uint32_t)at[1] << 16 | (uint32_t)at[2] << 8 | (uint32_t)at[3];
}

/* A binary lookup frame: header, op 0x02, id, key, one language, default table, no count. */
static void make_lookup(const char *key, const char *language) {
    size_t k = strlen(key), l = strlen(language);
    unsigned char *p = request + 6;
    *p++ = 0x02;
    put32(p, 1), p += 4;
    put32(p, (uint32_t)k), p += 4;
    memcpy(p, key, k), p += k;
    put32(p, 1), p += 4;
    put32(p, (uint32_t)l), p += 4;
    memcpy(p, language, l), p += l;
    put32(p, 0), p += 4;
    *p++ = 0;
    request[0] = 0xA5;
    request[1] = 0x01;
    put32(request + 2, (uint32_t)(p - request - 6));
    request_size = (size_t)(p - request);
}

static void make_get(const char *key) {
    request_size = (size_t)snprintf((char *)request, sizeof request, "*2\r\n$3\r\nGET\r\n$%zu\r\n%s\r\n", strlen(key), key);
}

/* The size of the complete reply at the start of `bytes`, or 0 when more must be read. */
static size_t reply_size(const unsigned char *bytes, size_t size) {
    if (!redis_mode) {
        if (size < 6) return 0;
        size_t total = 6 + get32(bytes + 2);
        if (size < total) return 0;
        if (total > 11 && bytes[6] == 0x81 && (bytes[11] & 1)) found++;
        return total;
    }
    const unsigned char *end = memchr(bytes, '\n', size);
    if (!end) return 0;
    size_t line = (size_t)(end - bytes) + 1;
    if (bytes[0] != '$') return line; /* an error or a status line */
    long length = atol((const char *)bytes + 1);
    if (length < 0) return line; /* nil */
    size_t total = line + (size_t)length + 2;
    if (size < total) return 0;
    found++;
    return total;
}

static int write_all(int fd, const unsigned char *bytes, size_t size) {
    while (size > 0) {
        ssize_t n = write(fd, bytes, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        bytes += n;
        size -= (size_t)n;
    }
    return 0;
}

static int send_requests(struct connection *c, long count) {
    static unsigned char batch[sizeof request * 128];
    while (count > 0) {
        long now_count = count < 128 ? count : 128;
        for (long i = 0; i < now_count; i++) memcpy(batch + (size_t)i * request_size, request, request_size);
        if (write_all(c->fd, batch, (size_t)now_count * request_size) != 0) return -1;
        c->in_flight += now_count;
        count -= now_count;
    }
    return 0;
}

/* Reads once; returns the number of complete replies taken, or -1 when the peer went away. */
static long read_replies(struct connection *c) {
    ssize_t n = read(c->fd, c->input + c->used, sizeof c->input - c->used);
    if (n < 0 && errno == EINTR) return 0;
    if (n <= 0) return -1;
    c->used += (size_t)n;
    size_t at = 0, size;
    long replies = 0;
    while ((size = reply_size(c->input + at, c->used - at)) > 0) at += size, replies++;
    memmove(c->input, c->input + at, c->used - at);
    c->used -= at;
    c->in_flight -= replies;
    return replies;
}

static int connect_to(const char *path) {
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strncpy(address.sun_path, path, sizeof address.sun_path - 1);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        perror("requestclient: connect");
        exit(1);
    }
    return fd;
}

/* SET key value on its own connection before the run. */
static void redis_set(const char *path, const char *key, const char *value) {
    char command[1024];
    int size = snprintf(command, sizeof command, "*3\r\n$3\r\nSET\r\n$%zu\r\n%s\r\n$%zu\r\n%s\r\n", strlen(key), key,
                        strlen(value), value);
    int fd = connect_to(path);
    char reply[64];
    if (write_all(fd, (unsigned char *)command, (size_t)size) != 0 || read(fd, reply, sizeof reply) <= 0 ||
        reply[0] != '+') {
        fprintf(stderr, "requestclient: SET failed\n");
        exit(1);
    }
    close(fd);
}

int main(int argc, char **argv) {
    if (argc != 8) {
        fprintf(stderr, "usage: requestclient l10nd|redis SOCKET COUNT DEPTH CONNECTIONS KEY LANGUAGE|VALUE\n");
        return 2;
    }
    redis_mode = strcmp(argv[1], "redis") == 0;
    const char *path = argv[2];
    long count = atol(argv[3]), depth = atol(argv[4]), connections = atol(argv[5]);
    if (count < 1 || depth < 1 || connections < 1 || connections > MAX_CONNECTIONS || strlen(argv[6]) > 200 ||
        strlen(argv[7]) > 200) {
        fprintf(stderr, "requestclient: bad arguments\n");
        return 2;
    }
    if (redis_mode) {
        redis_set(path, argv[6], argv[7]);
        make_get(argv[6]);
    } else {
        make_lookup(argv[6], argv[7]);
    }
    static struct connection pool[MAX_CONNECTIONS];
    struct pollfd ready[MAX_CONNECTIONS];
    for (long i = 0; i < connections; i++) {
        pool[i].fd = connect_to(path);
        ready[i] = (struct pollfd){.fd = pool[i].fd, .events = POLLIN};
    }
    long sent = 0, received = 0;
    double begun = now();
    for (long i = 0; i < connections && sent < count; i++) {
        long first = depth < count - sent ? depth : count - sent;
        if (send_requests(&pool[i], first) != 0) return 1;
        sent += first;
    }
    while (received < count) {
        if (connections > 1 && poll(ready, (nfds_t)connections, -1) < 0) {
            if (errno == EINTR) continue;
            perror("requestclient: poll");
            return 1;
        }
        for (long i = 0; i < connections; i++) {
            if (connections > 1 && !(ready[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            long replies = read_replies(&pool[i]);
            if (replies < 0) {
                fprintf(stderr, "requestclient: the server closed the connection\n");
                return 1;
            }
            received += replies;
            long more = replies < count - sent ? replies : count - sent;
            if (more > 0 && send_requests(&pool[i], more) != 0) return 1;
            sent += more;
        }
    }
    double took = now() - begun;
    for (long i = 0; i < connections; i++) close(pool[i].fd);
    printf("requestclient replies=%ld seconds=%.6f found=%ld\n", received, took, found);
    return 0;
}
