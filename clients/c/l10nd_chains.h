/* l10nd_chains.h: the daemon's fallback chains (protocol 1.7 `chain`), kept per generation's
 * fingerprint (the segments it serves, not their contents) so mapped lookups walk them in place. Internal: not installed, not exported.
 *
 * The chain a lookup walks is built from CLDR data (likely subtags, parent locales, Apple's
 * last resorts) that only the daemon carries: the library asks it once per query's languages
 * and table while the generations mapped keep one fingerprint (a content-only edit keeps it:
 * no new `chain` round trip, nor a lookup the daemon must answer when it went right after
 * such an edit), and probes the mapped segments along it exactly as the daemon's
 * own lookup does (SegmentProbe). */
#ifndef L10ND_CHAINS_H
#define L10ND_CHAINS_H

#include <pthread.h>

#include "l10nd_segments.h"

/* One `chain` reply: immutable once made, shared by reference count. */
typedef struct l10nd_chain {
    l10nd_fingerprint *fingerprint; /* of the generations the chain holds for (a reference) */
    char *name; /* the query's languages and table (l10nd_chain_name) */
    size_t name_length;
    int refused; /* the daemon refused these languages (a bad tag): lookups ask it */
    size_t count;
    char **languages;        /* the candidates, in order */
    unsigned char *fallback; /* by candidate: an answer from it is reported (missing-key report) */
    unsigned char *pseudo;   /* by candidate: a pseudo-language (the daemon derives its answer) */
    int refs;                /* atomic */
} l10nd_chain;

/* The chains of one client: at most L10ND_CHAIN_CAPACITY, of the newest fingerprint asked. */
typedef struct l10nd_chains {
    pthread_mutex_t mu;
    l10nd_chain **items;
    size_t count;
} l10nd_chains;

#define L10ND_CHAIN_CAPACITY 1024

/* What a query's chain is kept under: each language followed by a 0 byte, then a 1 byte, then
 * the table ("" for Localizable) and a 0. malloc'd; NULL when out of memory. */
L10ND_INTERNAL char *l10nd_chain_name(const l10nd_query *q, size_t *length);

/* The chain made from the daemon's `chain` reply (NULL: refused) for `name`, or NULL with err
 * (memory, a malformed reply). Its one reference is the caller's. */
L10ND_INTERNAL l10nd_chain *l10nd_chain_make(json_object *reply, l10nd_fingerprint *fingerprint, const char *name,
                                            size_t name_length, l10nd_error *err);
/* The kept chain of `name` for `fingerprint`, with a reference the caller releases; NULL when none. */
L10ND_INTERNAL l10nd_chain *l10nd_chains_get(l10nd_chains *chains, const l10nd_fingerprint *fingerprint, const char *name,
                                            size_t name_length);
/* Keeps `chain` (taking a reference of its own); chains of another fingerprint are let go. */
L10ND_INTERNAL void l10nd_chains_keep(l10nd_chains *chains, l10nd_chain *chain);
L10ND_INTERNAL void l10nd_chain_release(l10nd_chain *chain);
/* Lets every chain go (the client's end, a fork's child). */
L10ND_INTERNAL void l10nd_chains_clear(l10nd_chains *chains);

/* `key` along `chain` in `m` (of the chain's fingerprint), as the daemon answers it: 1 with
 * result filled (value, found, lang, generation) and *report set when the missing-key report
 * lists it (a miss, a fallback); 0 when the daemon must answer (a plural entry, a pseudo-
 * language's derived answer, a non-ASCII key a segment may hold composed); a negated error. */
L10ND_INTERNAL int l10nd_chain_answer(const l10nd_mapping *m, const l10nd_chain *chain, const char *table,
                                      const char *key, l10nd_result *result, int *report, l10nd_error *err);

#endif
