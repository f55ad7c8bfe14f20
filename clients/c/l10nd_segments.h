/* l10nd_segments.h: the library's own reader of the daemon's compiled segments (docs/FORMAT.md,
 * version 3.0) and of a `map` reply (docs/PROTOCOL.md). Internal: not installed, not exported. */
#ifndef L10ND_SEGMENTS_H
#define L10ND_SEGMENTS_H

#include <json-c/json.h>
#include <stddef.h>
#include <stdint.h>

#include "l10nd.h"

#define L10ND_INTERNAL __attribute__((visibility("hidden")))

/* One (language, table) segment, checked as FORMAT.md says a reader must. Points into the
 * bytes it was opened on. */
typedef struct l10nd_segment {
    const unsigned char *data;
    uint64_t length;
    uint32_t key_count, slot_count, body_checksum;
    uint64_t strings, strings_length, slots, entries;
    const char *language, *table; /* in the strings section: each is followed by a 0 byte */
    uint32_t language_length, table_length;
} l10nd_segment;

/* Opens `length` bytes as a segment, checking the header and its checksum, the sections'
 * bounds, and (with verify_body) the body's checksum. L10ND_OK or L10ND_ERR_PROTOCOL with
 * err saying what is wrong. */
L10ND_INTERNAL int l10nd_segment_open(const unsigned char *data, size_t length, int verify_body, l10nd_segment *s,
                                      l10nd_error *err);

/* Finds the key's `length` UTF-8 bytes as given (no NFC composition): 1 with its value's
 * bytes and length and whether the entry is plural, 0 when the segment lacks it,
 * L10ND_ERR_PROTOCOL (negated) when a reference on the way is damaged. */
L10ND_INTERNAL int l10nd_segment_find(const l10nd_segment *s, const char *key, size_t length, const char **value,
                                      uint32_t *value_length, int *plural);

/* Fills err (when given) with code and the formatted message; returns code. Every failure
 * of the library is said through it. */
L10ND_INTERNAL int l10nd_fail(l10nd_error *err, int code, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

L10ND_INTERNAL uint32_t l10nd_crc32c(const unsigned char *p, size_t n);
L10ND_INTERNAL uint64_t l10nd_key_hash(const unsigned char *p, size_t n);

/* One generation handed over by `map`: its slabs mapped read-only, its segments sorted by
 * (table, language). Immutable once made. */
typedef struct l10nd_mapping l10nd_mapping;

/* A mapping of the manifest (a `map` reply, ok:true) and its slabs' descriptors, which it
 * checks (all four seals, the announced size), maps and then closes — all of them, whatever
 * the outcome. L10ND_OK with *out, or an error. */
L10ND_INTERNAL int l10nd_mapping_make(json_object *manifest, const int *fds, size_t fd_count, l10nd_mapping **out,
                                      l10nd_error *err);
L10ND_INTERNAL long long l10nd_mapping_generation(const l10nd_mapping *m);
/* What the daemon's chains of a generation depend on (LookupService+Chain.swift): its
 * (language, table) segments, development language and tables' source languages — not the
 * segments' contents. Immutable, shared by reference count; equal ones are the same chains. */
typedef struct l10nd_fingerprint l10nd_fingerprint;
/* m's fingerprint, borrowed: retain it to keep it past m. */
L10ND_INTERNAL l10nd_fingerprint *l10nd_mapping_fingerprint(const l10nd_mapping *m);
/* Makes m (not yet shared with other threads) hold previous's fingerprint when the two are
 * equal, so a chain of either is found by comparing pointers. */
L10ND_INTERNAL void l10nd_mapping_adopt_fingerprint(l10nd_mapping *m, const l10nd_mapping *previous);
L10ND_INTERNAL l10nd_fingerprint *l10nd_fingerprint_retain(l10nd_fingerprint *f);
L10ND_INTERNAL void l10nd_fingerprint_release(l10nd_fingerprint *f); /* NULL is fine */
L10ND_INTERNAL int l10nd_fingerprint_equal(const l10nd_fingerprint *a, const l10nd_fingerprint *b);
/* What l10nd_mapping_probe found. */
enum {
    L10ND_PROBE_ABSENT = 0, /* (lang, table) has no segment, or its segment surely lacks the key */
    L10ND_PROBE_FOUND = 1,  /* a plain entry: its value in *value */
    L10ND_PROBE_ASK = 2,    /* only the daemon can answer: a plural entry, or an absent key with a
                               byte >= 0x80, which the daemon also tries composed (NFC) */
};
/* `key` in (lang, table)'s own segment: one of the above (*value a malloc'd copy when
 * FOUND), or a negated error code (damage, memory). */
L10ND_INTERNAL int l10nd_mapping_probe(const l10nd_mapping *m, const char *lang, const char *table, const char *key,
                                       char **value, l10nd_error *err);
/* Unmaps and frees (NULL is fine). */
L10ND_INTERNAL void l10nd_mapping_free(l10nd_mapping *m);

#endif
