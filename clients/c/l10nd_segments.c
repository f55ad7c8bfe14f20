/* l10nd_segments.c: reads the daemon's compiled segments in place (docs/FORMAT.md, 3.0) and
 * maps the slabs a `map` reply hands over (docs/PROTOCOL.md). Written from those pages; pure
 * but for mmap, so Fuzz/Targets/c-segment.c feeds it anything. Every offset is checked
 * before it is followed: a damaged or hostile segment is an error, never a read outside it. */
#define _GNU_SOURCE
#include "l10nd_segments.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "segments are little-endian; this reader reads them as the host's integers"
#endif

#define HEADER_LENGTH 96
#define ABSENT 0xFFFFFFFFu
/* The seals that make a slab immutable for good (fcntl F_ADD_SEALS' bits). */
#define IMMUTABLE_SEALS (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)

int l10nd_fail(l10nd_error *err, int code, const char *format, ...) {
    if (err) {
        va_list list;
        va_start(list, format);
        err->code = code;
        vsnprintf(err->message, sizeof err->message, format, list);
        va_end(list);
    }
    return code;
}

static uint32_t u32(const unsigned char *p) {
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static uint64_t u64(const unsigned char *p) {
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* The running CRC-32C state after `n` more bytes (bitwise: a header is 96 bytes). */
static uint32_t crc32c_update(uint32_t crc, const unsigned char *p, size_t n) {
    while (n--) {
        crc ^= *p++;
        for (int k = 0; k < 8; k++) crc = crc & 1 ? (crc >> 1) ^ 0x82F63B78u : crc >> 1;
    }
    return crc;
}

uint32_t l10nd_crc32c(const unsigned char *p, size_t n) { return ~crc32c_update(0xFFFFFFFFu, p, n); }

uint64_t l10nd_key_hash(const unsigned char *p, size_t n) {
    const uint64_t m = 0x9E3779B97F4A7C15ull;
    uint64_t h = 0xCBF29CE484222325ull ^ (uint64_t)n;
    for (size_t i = 0; i < n; i += 8) {
        uint64_t w = 0;
        for (size_t k = 0; k < 8 && i + k < n; k++) w |= (uint64_t)p[i + k] << (8 * k);
        h = (h ^ w) * m;
        h ^= h >> 29;
    }
    h *= m;
    return h ^ (h >> 32);
}

/* A string reference at `at` (inside the body, checked by the caller): 1 with its bytes. */
static int string_at(const l10nd_segment *s, uint64_t at, const char **bytes, uint32_t *length) {
    uint32_t offset = u32(s->data + at), count = u32(s->data + at + 4);
    if (offset > s->strings_length || count > s->strings_length - offset) return 0;
    *bytes = (const char *)s->data + s->strings + offset;
    *length = count;
    return 1;
}

/* Whether [offset, offset + length) lies in the body. */
static int inside(const l10nd_segment *s, uint64_t header_length, uint64_t offset, uint64_t length) {
    return offset >= header_length && offset <= s->length && length <= s->length - offset;
}

int l10nd_segment_open(const unsigned char *data, size_t length, int verify_body, l10nd_segment *s,
                       l10nd_error *err) {
    memset(s, 0, sizeof *s);
    if (length < HEADER_LENGTH) return l10nd_fail(err, L10ND_ERR_PROTOCOL, "a segment is shorter than its header");
    if (memcmp(data, "L10NDSEG", 8)) return l10nd_fail(err, L10ND_ERR_PROTOCOL, "a segment's magic is wrong");
    uint16_t major;
    memcpy(&major, data + 8, 2);
    if (major != 3) return l10nd_fail(err, L10ND_ERR_PROTOCOL, "a segment of version %u (this library reads 3)", major);
    uint64_t header_length = u32(data + 12), total = u64(data + 16);
    if (total > length) return l10nd_fail(err, L10ND_ERR_PROTOCOL, "a segment is cut short");
    if (header_length < HEADER_LENGTH || header_length > total || header_length % 8)
        return l10nd_fail(err, L10ND_ERR_PROTOCOL, "a segment's header length is wrong");
    /* The header's checksum, its own field taken as 0. */
    static const unsigned char zero[4];
    uint32_t crc = crc32c_update(0xFFFFFFFFu, data, 24);
    crc = crc32c_update(crc, zero, sizeof zero);
    crc = crc32c_update(crc, data + 28, header_length - 28);
    if (~crc != u32(data + 24)) return l10nd_fail(err, L10ND_ERR_PROTOCOL, "a segment's header checksum is wrong");
    s->data = data;
    s->length = total;
    s->body_checksum = u32(data + 28);
    if (verify_body && l10nd_crc32c(data + header_length, total - header_length) != s->body_checksum)
        return l10nd_fail(err, L10ND_ERR_PROTOCOL, "a segment's body checksum is wrong");
    s->key_count = u32(data + 32);
    s->slot_count = u32(data + 36);
    if (s->slot_count == 0 || (s->slot_count & (s->slot_count - 1)) || s->key_count > s->slot_count)
        return l10nd_fail(err, L10ND_ERR_PROTOCOL, "a segment's slot count is wrong");
    s->strings = u64(data + 40);
    s->strings_length = u64(data + 48);
    s->slots = u64(data + 56);
    s->entries = u64(data + 64);
    if (!inside(s, header_length, s->strings, s->strings_length) ||
        !inside(s, header_length, s->slots, 16ull * s->slot_count) ||
        !inside(s, header_length, s->entries, 24ull * s->key_count))
        return l10nd_fail(err, L10ND_ERR_PROTOCOL, "a segment's section lies outside it");
    if (!string_at(s, 72, &s->language, &s->language_length) || !string_at(s, 80, &s->table, &s->table_length))
        return l10nd_fail(err, L10ND_ERR_PROTOCOL, "a segment's language or table lies outside it");
    return L10ND_OK;
}

int l10nd_segment_find(const l10nd_segment *s, const char *key, size_t length, const char **value,
                       uint32_t *value_length, int *plural) {
    uint64_t h = l10nd_key_hash((const unsigned char *)key, length);
    uint32_t mask = s->slot_count - 1, slot = (uint32_t)h & mask;
    for (uint32_t probed = 0; probed < s->slot_count; probed++, slot = (slot + 1) & mask) {
        const unsigned char *at = s->data + s->slots + 16ull * slot;
        uint32_t number = u32(at + 4);
        if (number == 0) return 0;
        if (u32(at) != (uint32_t)(h >> 32)) continue;
        if (number > s->key_count) return -L10ND_ERR_PROTOCOL;
        const char *bytes;
        uint32_t count;
        if (!string_at(s, s->slots + 16ull * slot + 8, &bytes, &count)) return -L10ND_ERR_PROTOCOL;
        if (count != length || memcmp(bytes, key, length)) continue;
        uint64_t entry = s->entries + 24ull * (number - 1);
        if (!string_at(s, entry + 8, value, value_length)) return -L10ND_ERR_PROTOCOL;
        *plural = u32(s->data + entry + 16) != 0;
        return 1;
    }
    return 0;
}

/* ---- a map reply's generation ---- */

struct l10nd_fingerprint {
    int refs; /* atomic */
    size_t length;
    char bytes[];
};

struct l10nd_mapping {
    long long generation;
    l10nd_fingerprint *fingerprint;
    size_t slab_count, segment_count;
    void **slabs;
    size_t *slab_sizes;
    l10nd_segment *segments; /* sorted by (table, language) */
};

static int compare_names(const char *a, size_t a_length, const char *b, size_t b_length) {
    int order = memcmp(a, b, a_length < b_length ? a_length : b_length);
    return order ? order : (a_length > b_length) - (a_length < b_length);
}

static int compare_segments(const void *left, const void *right) {
    const l10nd_segment *a = left, *b = right;
    int order = compare_names(a->table, a->table_length, b->table, b->table_length);
    return order ? order : compare_names(a->language, a->language_length, b->language, b->language_length);
}

long long l10nd_mapping_generation(const l10nd_mapping *m) { return m->generation; }

l10nd_fingerprint *l10nd_mapping_fingerprint(const l10nd_mapping *m) { return m->fingerprint; }

l10nd_fingerprint *l10nd_fingerprint_retain(l10nd_fingerprint *f) {
    if (f) __atomic_add_fetch(&f->refs, 1, __ATOMIC_ACQ_REL);
    return f;
}

void l10nd_fingerprint_release(l10nd_fingerprint *f) {
    if (f && __atomic_sub_fetch(&f->refs, 1, __ATOMIC_ACQ_REL) == 0) free(f);
}

int l10nd_fingerprint_equal(const l10nd_fingerprint *a, const l10nd_fingerprint *b) {
    return a == b || (a && b && a->length == b->length && !memcmp(a->bytes, b->bytes, a->length));
}

void l10nd_mapping_adopt_fingerprint(l10nd_mapping *m, const l10nd_mapping *previous) {
    if (!m || !previous || m->fingerprint == previous->fingerprint ||
        !l10nd_fingerprint_equal(m->fingerprint, previous->fingerprint))
        return;
    l10nd_fingerprint_release(m->fingerprint);
    m->fingerprint = l10nd_fingerprint_retain(previous->fingerprint);
}

/* `length` bytes and a 0 at `at`; where they end. */
static char *put(char *at, const char *bytes, size_t length) {
    memcpy(at, bytes, length);
    at[length] = 0;
    return at + length + 1;
}

/* The manifest's development language and source languages (as sent: another order of the
 * same ones is only a needless new chain), then every (table, language) of the sorted
 * segments, each followed by a 0 byte. */
static l10nd_fingerprint *fingerprint_make(json_object *manifest, const l10nd_segment *segments, size_t count) {
    json_object *development = NULL, *sources = NULL;
    json_object_object_get_ex(manifest, "development_language", &development);
    json_object_object_get_ex(manifest, "source_languages", &sources);
    const char *first = development ? json_object_to_json_string_ext(development, JSON_C_TO_STRING_PLAIN) : "";
    const char *second = sources ? json_object_to_json_string_ext(sources, JSON_C_TO_STRING_PLAIN) : "";
    if (!first || !second) return NULL;
    size_t length = strlen(first) + 1 + strlen(second) + 1;
    for (size_t i = 0; i < count; i++) length += segments[i].table_length + 1 + segments[i].language_length + 1;
    l10nd_fingerprint *f = malloc(sizeof *f + length);
    if (!f) return NULL;
    f->refs = 1;
    f->length = length;
    char *at = f->bytes;
    at = put(at, first, strlen(first));
    at = put(at, second, strlen(second));
    for (size_t i = 0; i < count; i++) {
        at = put(at, segments[i].table, segments[i].table_length);
        at = put(at, segments[i].language, segments[i].language_length);
    }
    return f;
}

void l10nd_mapping_free(l10nd_mapping *m) {
    if (!m) return;
    l10nd_fingerprint_release(m->fingerprint);
    for (size_t i = 0; i < m->slab_count; i++)
        if (m->slabs[i] && m->slabs[i] != MAP_FAILED) munmap(m->slabs[i], m->slab_sizes[i]);
    free(m->slabs);
    free(m->slab_sizes);
    free(m->segments);
    free(m);
}

static int member(json_object *object, const char *name, json_type type, json_object **out) {
    return json_object_object_get_ex(object, name, out) && json_object_is_type(*out, type);
}

/* A manifest's non-negative integer, or -1. */
static long long natural(json_object *value) {
    if (!value || !json_object_is_type(value, json_type_int)) return -1;
    int64_t n = json_object_get_int64(value);
    return n < 0 ? -1 : (long long)n;
}

int l10nd_mapping_make(json_object *manifest, const int *fds, size_t fd_count, l10nd_mapping **out,
                       l10nd_error *err) {
    *out = NULL;
    int code = L10ND_OK;
    json_object *generation, *slabs, *segments;
    l10nd_mapping *m = calloc(1, sizeof *m);
    if (!m) {
        code = l10nd_fail(err, L10ND_ERR_MEMORY, "out of memory mapping l10nd's segments");
        goto done;
    }
    if (!member(manifest, "generation", json_type_int, &generation) ||
        !member(manifest, "slabs", json_type_array, &slabs) || !member(manifest, "segments", json_type_array, &segments)) {
        code = l10nd_fail(err, L10ND_ERR_PROTOCOL, "l10nd's map reply lacks generation, slabs or segments");
        goto done;
    }
    m->generation = json_object_get_int64(generation);
    size_t slab_count = json_object_array_length(slabs);
    if (slab_count != fd_count) {
        code = l10nd_fail(err, L10ND_ERR_PROTOCOL, "l10nd's map reply names %zu slabs and carried %zu descriptors",
                      slab_count, fd_count);
        goto done;
    }
    m->slabs = calloc(slab_count ? slab_count : 1, sizeof *m->slabs);
    m->slab_sizes = calloc(slab_count ? slab_count : 1, sizeof *m->slab_sizes);
    if (!m->slabs || !m->slab_sizes) {
        code = l10nd_fail(err, L10ND_ERR_MEMORY, "out of memory mapping l10nd's segments");
        goto done;
    }
    for (size_t i = 0; i < slab_count; i++) {
        long long size = natural(json_object_array_get_idx(slabs, i));
        struct stat status;
        int seals = fcntl(fds[i], F_GET_SEALS);
        if (size < 0 || seals < 0 || (seals & IMMUTABLE_SEALS) != IMMUTABLE_SEALS) {
            code = l10nd_fail(err, L10ND_ERR_PROTOCOL, "slab %zu is not a memory file sealed for good", i);
            goto done;
        }
        if (fstat(fds[i], &status) != 0 || status.st_size != size) {
            code = l10nd_fail(err, L10ND_ERR_PROTOCOL, "slab %zu is not the size announced (%lld bytes)", i, size);
            goto done;
        }
        m->slab_count = i + 1;
        m->slab_sizes[i] = (size_t)size;
        m->slabs[i] = size ? mmap(NULL, (size_t)size, PROT_READ, MAP_SHARED, fds[i], 0) : NULL;
        if (m->slabs[i] == MAP_FAILED) {
            code = l10nd_fail(err, L10ND_ERR_IO, "mapping slab %zu: %s", i, strerror(errno));
            goto done;
        }
    }
    size_t count = json_object_array_length(segments);
    m->segments = calloc(count ? count : 1, sizeof *m->segments);
    if (!m->segments) {
        code = l10nd_fail(err, L10ND_ERR_MEMORY, "out of memory mapping l10nd's segments");
        goto done;
    }
    for (size_t i = 0; i < count; i++) {
        /* [language, table, slab, offset, length, checksum] */
        json_object *item = json_object_array_get_idx(segments, i);
        if (!json_object_is_type(item, json_type_array) || json_object_array_length(item) != 6 ||
            !json_object_is_type(json_object_array_get_idx(item, 0), json_type_string) ||
            !json_object_is_type(json_object_array_get_idx(item, 1), json_type_string)) {
            code = l10nd_fail(err, L10ND_ERR_PROTOCOL, "l10nd's map reply has a malformed segment %zu", i);
            goto done;
        }
        const char *language = json_object_get_string(json_object_array_get_idx(item, 0));
        const char *table = json_object_get_string(json_object_array_get_idx(item, 1));
        long long slab = natural(json_object_array_get_idx(item, 2));
        long long offset = natural(json_object_array_get_idx(item, 3));
        long long length = natural(json_object_array_get_idx(item, 4));
        long long checksum = natural(json_object_array_get_idx(item, 5));
        if (slab < 0 || (size_t)slab >= slab_count || offset < 0 || length < 0 || checksum < 0 ||
            (unsigned long long)offset > m->slab_sizes[slab] ||
            (unsigned long long)length > m->slab_sizes[slab] - (unsigned long long)offset) {
            code = l10nd_fail(err, L10ND_ERR_PROTOCOL, "segment %s/%s lies outside its slab", language, table);
            goto done;
        }
        l10nd_segment *s = &m->segments[i];
        /* Sealed by the daemon, which wrote it: the body checksum pass is skipped (FORMAT.md). */
        code = l10nd_segment_open((const unsigned char *)m->slabs[slab] + offset, (size_t)length, 0, s, err);
        if (code) goto done;
        if (compare_names(s->language, s->language_length, language, strlen(language)) ||
            compare_names(s->table, s->table_length, table, strlen(table)) ||
            s->body_checksum != (unsigned long long)checksum) {
            code = l10nd_fail(err, L10ND_ERR_PROTOCOL, "the segment named %s/%s is another", language, table);
            goto done;
        }
        m->segment_count = i + 1;
    }
    qsort(m->segments, m->segment_count, sizeof *m->segments, compare_segments);
    if (!(m->fingerprint = fingerprint_make(manifest, m->segments, m->segment_count)))
        code = l10nd_fail(err, L10ND_ERR_MEMORY, "out of memory mapping l10nd's segments");
done:
    for (size_t i = 0; i < fd_count; i++) close(fds[i]); /* a mapping outlives its descriptor */
    if (code) l10nd_mapping_free(m);
    else *out = m;
    return code;
}

int l10nd_mapping_probe(const l10nd_mapping *m, const char *lang, const char *table, const char *key, char **value,
                        l10nd_error *err) {
    *value = NULL;
    l10nd_segment wanted = {.table = table && *table ? table : "Localizable", .language = lang};
    wanted.table_length = (uint32_t)strlen(wanted.table);
    wanted.language_length = (uint32_t)strlen(lang);
    const l10nd_segment *s = bsearch(&wanted, m->segments, m->segment_count, sizeof wanted, compare_segments);
    if (!s) return L10ND_PROBE_ABSENT;
    const char *bytes;
    uint32_t length;
    int plural = 0;
    size_t key_length = strlen(key);
    int found = l10nd_segment_find(s, key, key_length, &bytes, &length, &plural);
    if (found < 0)
        return -l10nd_fail(err, L10ND_ERR_PROTOCOL, "segment %s/%s of generation %lld is damaged", lang, wanted.table,
                       m->generation);
    if (!found) {
        /* The index holds each key's NFC form, which this library does not compute: a key with
         * a byte >= 0x80 may be there composed, so only the daemon can say it is absent. */
        for (size_t i = 0; i < key_length; i++)
            if ((unsigned char)key[i] >= 0x80) return L10ND_PROBE_ASK;
        return L10ND_PROBE_ABSENT;
    }
    if (plural) return L10ND_PROBE_ASK;
    if (!(*value = malloc(length + 1))) return -l10nd_fail(err, L10ND_ERR_MEMORY, "out of memory");
    memcpy(*value, bytes, length);
    (*value)[length] = 0;
    return L10ND_PROBE_FOUND;
}
