/* c-segment: the C client's segment and map-reply reader (clients/c/l10nd_segments.c), fed any
 * bytes. The input is read as one segment, with and without the body checksum pass; when it
 * opens, every key its slots name and a few others are looked up. Then the input is read as a
 * `map` reply: a manifest line, its slab the bytes after it (in a sealed memory file, as the
 * daemon hands it over), each of its segments looked up. Beyond "no crash, no leak, no
 * descriptor left open": a value found lies inside the segment; a refused segment or manifest
 * says why; a key found is found again under the same bytes. */
#include "l10nd_segments.c"

#include <stdint.h>
#include <sys/mman.h>

static void require(int condition, const char *what) {
    if (!condition) {
        fprintf(stderr, "c-segment: %s\n", what);
        abort();
    }
}

/* The manifest: at most 64 KiB of the input, parsed by json-c as the client parses lines. */
static json_object *parse_manifest(const uint8_t *text, size_t length) {
    json_tokener *tokener = json_tokener_new();
    if (!tokener) return NULL;
    json_object *parsed = json_tokener_parse_ex(tokener, (const char *)text, (int)(length > 65536 ? 65536 : length));
    if (json_tokener_get_error(tokener) != json_tokener_success) {
        json_object_put(parsed);
        parsed = NULL;
    }
    json_tokener_free(tokener);
    return parsed;
}

static void probe(const l10nd_segment *s, const char *key, size_t length) {
    const char *value;
    uint32_t value_length = 0;
    int plural = 0;
    int found = l10nd_segment_find(s, key, length, &value, &value_length, &plural);
    require(found == 0 || found == 1 || found == -L10ND_ERR_PROTOCOL, "find said something else");
    if (found != 1) return;
    const char *start = (const char *)s->data, *end = start + s->length;
    require(value >= start && value <= end && value_length <= (size_t)(end - value), "a value lies outside");
    const char *again;
    uint32_t again_length = 0;
    require(l10nd_segment_find(s, key, length, &again, &again_length, &plural) == 1 && again == value,
            "a key found once is not found again");
}

static void read_as_segment(const unsigned char *data, size_t size) {
    for (int verify = 0; verify < 2; verify++) {
        l10nd_segment s;
        l10nd_error err = {0};
        int code = l10nd_segment_open(data, size, verify, &s, &err);
        if (code) {
            require(code == L10ND_ERR_PROTOCOL && err.code == code && err.message[0], "a refusal said nothing");
            continue;
        }
        /* Every key the slots name (their string references may be damaged: then skipped). */
        for (uint32_t slot = 0; slot < s.slot_count && slot < 4096; slot++) {
            const char *key;
            uint32_t length;
            if (string_at(&s, s.slots + 16ull * slot + 8, &key, &length)) probe(&s, key, length);
        }
        probe(&s, "", 0);
        probe(&s, "key 1", 5);
        probe(&s, "\xe4\xbf\x9d\xe5\xad\x98", 6);
    }
}

/* The input up to its first newline as a manifest, the rest as its one slab. */
static void read_as_map_reply(const uint8_t *data, size_t size) {
    const uint8_t *newline = memchr(data, '\n', size);
    if (!newline) return;
    json_object *manifest = parse_manifest(data, (size_t)(newline - data));
    if (!manifest) return;
    size_t slab_length = size - (size_t)(newline + 1 - data);
    int fd = memfd_create("c-segment", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    require(fd >= 0, "no memory file");
    require(write(fd, newline + 1, slab_length) == (ssize_t)slab_length, "the slab was not written");
    require(fcntl(fd, F_ADD_SEALS, IMMUTABLE_SEALS) == 0, "the slab was not sealed");
    l10nd_mapping *m = NULL;
    l10nd_error err = {0};
    int code = l10nd_mapping_make(manifest, &fd, 1, &m, &err);
    require(fcntl(fd, F_GETFD) == -1, "the slab's descriptor was left open");
    if (code) {
        require(!m && err.code == code && err.message[0], "a refused map reply said nothing");
    } else {
        for (size_t i = 0; i < m->segment_count; i++) {
            char language[64], table[64];
            snprintf(language, sizeof language, "%.*s", (int)m->segments[i].language_length, m->segments[i].language);
            snprintf(table, sizeof table, "%.*s", (int)m->segments[i].table_length, m->segments[i].table);
            char *value = NULL;
            int found = l10nd_mapping_probe(m, language, table, "key 1", &value, &err);
            require(found == L10ND_PROBE_ABSENT || found == L10ND_PROBE_FOUND || found == L10ND_PROBE_ASK ||
                        found == -L10ND_ERR_PROTOCOL || found == -L10ND_ERR_MEMORY,
                    "mapping_probe said something else");
            require((found == 1) == (value != NULL), "a value without an answer");
            free(value);
        }
        l10nd_mapping_free(m);
    }
    json_object_put(manifest);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    read_as_segment(data, size);
    read_as_map_reply(data, size);
    return 0;
}
