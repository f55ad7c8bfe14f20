/* l10nd.h: the C client of l10nd (docs/PROTOCOL.md, JSON lines).
 *
 * One l10nd_client may be shared by any number of threads: requests carry ids and each
 * reply goes to the thread that asked. A client open when the process forks is usable in the
 * child too: the child's first call opens connections of its own (the parent's stay the
 * parent's); a subscription is not (make a new one in the child). The one global state is the
 * list of open clients, for that. Every failure is returned as a code and a message in the
 * caller's l10nd_error; nothing aborts or exits. */
#ifndef L10ND_H
#define L10ND_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Error codes (l10nd_error.code; also every function's return value). */
enum {
    L10ND_OK = 0,
    L10ND_ERR_CONNECT = 1,  /* no daemon at any socket the rule tried (the message names them) */
    L10ND_ERR_IO = 2,       /* the connection broke; the next call reconnects */
    L10ND_ERR_TIMEOUT = 3,  /* no reply within the call's time limit */
    L10ND_ERR_PROTOCOL = 4, /* the daemon sent something this library cannot read */
    L10ND_ERR_DAEMON = 5,   /* the daemon answered ok:false (message = "code: message") */
    L10ND_ERR_ARGUMENT = 6, /* the caller passed something invalid */
    L10ND_ERR_MEMORY = 7    /* out of memory */
};

/* Where a failure is described. Owned by the caller; may be NULL where it is not wanted. */
typedef struct l10nd_error {
    int code;
    char message[512];
} l10nd_error;

typedef struct l10nd_client l10nd_client;

/* Connects. socket_path NULL follows the socket rule (docs/CLIENT.md "Which socket"):
 * L10N_SOCKET; else $XDG_RUNTIME_DIR/l10nd/l10nd.sock (/tmp/l10nd-$UID/l10nd.sock without
 * it) if it exists; else /run/l10nd/l10nd.sock. timeout_ms is each call's time limit
 * (0 = 5000), kept by every thread's call also while the daemon is away (a call that needs
 * it tries to connect until then, then returns L10ND_ERR_CONNECT). Returns NULL with err filled when no daemon answers. In mapped mode (the
 * default, below) it also opens the watch connection and maps the daemon's segments, within
 * the same timeout_ms; a failure there only leaves lookups to the daemon. A call has one
 * deadline for all it does (reconnecting the watch, mapping, asking a chain, connecting, the
 * request): a daemon that accepts no connection or answers nothing costs it timeout_ms, not
 * more. */
l10nd_client *l10nd_open(const char *socket_path, int timeout_ms, l10nd_error *err);
/* Closes the connection and frees the client. No call may be running on it. */
void l10nd_close(l10nd_client *client);

/* One printf-style argument for a finished string (protocol 1.4 "args"). */
typedef enum { L10ND_ARG_STRING, L10ND_ARG_INT, L10ND_ARG_DOUBLE } l10nd_arg_type;
typedef struct l10nd_arg {
    l10nd_arg_type type;
    const char *string; /* L10ND_ARG_STRING */
    long long integer;  /* L10ND_ARG_INT */
    double number;      /* L10ND_ARG_DOUBLE */
} l10nd_arg;

/* What to look up. Zero-initialise, then set what you need. */
typedef struct l10nd_query {
    const char *key;
    const char *table;                /* NULL = Localizable */
    const char *const *languages;     /* preferred first; NULL/0 = the daemon's default */
    size_t language_count;
    const char *count;                /* plural count as decimal text ("3", "1.50"); NULL = none */
    const l10nd_arg *args;            /* with arg_count > 0 the reply has a finished string */
    size_t arg_count;
} l10nd_query;

/* One answer. Strings are owned by the result: free with l10nd_result_free. */
typedef struct l10nd_result {
    char *value;      /* the value (the key itself when not found) */
    int found;        /* 1 when some language had the key */
    char *lang;       /* the language that answered; NULL when not found */
    char *formatted;  /* the finished string when args were given, else NULL */
    long long generation;
} l10nd_result;

void l10nd_result_free(l10nd_result *result);

/* Looks one key up. On L10ND_OK, *result is filled (free it); otherwise it is zeroed. */
int l10nd_lookup(l10nd_client *client, const l10nd_query *query, l10nd_result *result, l10nd_error *err);

/* Looks key_count keys up in one request (query's table and languages; its key, count and args
 * are ignored). results must hold key_count entries; on L10ND_OK each is filled (free each). */
int l10nd_batch(l10nd_client *client, const l10nd_query *query, const char *const *keys, size_t key_count,
                l10nd_result *results, l10nd_error *err);

/* Mapped lookups (on by default; L10N_MODE=direct in the environment at l10nd_open, or
 * l10nd_set_mapped(client, 0), turns them off; another L10N_MODE than mapped or direct is
 * said once per process on standard error, "l10nd-client: L10N_MODE=… is not a mode of this
 * library (mapped, direct); using mapped mode"). The client maps the daemon's compiled segments
 * (protocol 1.6 `map`, on a second connection that is subscribed to changes) and answers a
 * lookup or batch without count or args whose keys are plain strings in place, along the
 * daemon's fallback chain (asked once per languages and table and generation: protocol 1.7
 * `chain`): no round trip, the same value, found and lang, fallbacks and misses too (these
 * are reported to the daemon's missing-key report, one batch at most every 200 ms). A plural
 * entry, a count or args, a pseudo-language's derived answer and a non-ASCII key a segment
 * lacks as given are asked of the daemon. A change
 * event, or a reply from a newer generation, retires the mapped one before the next lookup
 * reads it; the new one is mapped by the next lookup to see the change. A daemon that
 * refuses `map` is asked every time. While the daemon is away the last generation mapped
 * answers. Thread-safe like the rest: may be called while lookups run. */
int l10nd_set_mapped(l10nd_client *client, int mapped);
/* The generation mapped lookups answer from now (-1: none: not mapped, off, refused, or a
 * newer one announced and not mapped yet). Returns L10ND_OK, or the last mapping failure's
 * code with err saying what it was (lookups then ask the daemon). */
int l10nd_mapping_state(l10nd_client *client, long long *generation, l10nd_error *err);

/* A subscription to change events, on a connection of its own. Use from one thread at a time. */
typedef struct l10nd_subscription l10nd_subscription;

typedef struct l10nd_event {
    long long generation; /* the generation now served; -1 after a reconnect (anything may have changed) */
    int reconnected;      /* 1 when the daemon restarted and the subscription was renewed */
} l10nd_event;

l10nd_subscription *l10nd_subscribe(const char *socket_path, int timeout_ms, l10nd_error *err);
/* Waits up to timeout_ms for the next event: L10ND_OK with *event filled, or L10ND_ERR_TIMEOUT.
 * A daemon restart is survived: the subscription is renewed and reported as reconnected. */
int l10nd_next_event(l10nd_subscription *sub, int timeout_ms, l10nd_event *event, l10nd_error *err);
void l10nd_unsubscribe(l10nd_subscription *sub);

#ifdef __cplusplus
}
#endif
#endif
