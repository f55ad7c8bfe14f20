/* l10nd_chains.c: the daemon's fallback chains, kept per generation's fingerprint, and a lookup along one
 * over the mapped segments (l10nd_chains.h says why the chain is the daemon's). */
#define _GNU_SOURCE
#include "l10nd_chains.h"

#include <stdlib.h>
#include <string.h>

char *l10nd_chain_name(const l10nd_query *q, size_t *length) {
    size_t total = 0;
    size_t count = q->languages ? q->language_count : 0;
    for (size_t i = 0; i < count; i++) total += strlen(q->languages[i] ? q->languages[i] : "") + 1;
    const char *table = q->table ? q->table : "";
    total += 1 + strlen(table) + 1;
    char *name = malloc(total);
    if (!name) return NULL;
    char *at = name;
    for (size_t i = 0; i < count; i++) {
        const char *language = q->languages[i] ? q->languages[i] : "";
        size_t n = strlen(language) + 1;
        memcpy(at, language, n);
        at += n;
    }
    *at++ = 1;
    memcpy(at, table, strlen(table) + 1);
    *length = total;
    return name;
}

static void chain_free(l10nd_chain *chain) {
    if (!chain) return;
    for (size_t i = 0; i < chain->count; i++) free(chain->languages[i]);
    free(chain->languages);
    free(chain->fallback);
    free(chain->pseudo);
    free(chain->name);
    l10nd_fingerprint_release(chain->fingerprint);
    free(chain);
}

void l10nd_chain_release(l10nd_chain *chain) {
    if (chain && __atomic_sub_fetch(&chain->refs, 1, __ATOMIC_ACQ_REL) == 0) chain_free(chain);
}

/* A reply's list member of `count` entries of `type` (count 0: any length, set), or NULL. */
static json_object *list(json_object *reply, const char *member, json_type type, size_t *count) {
    json_object *value;
    if (!json_object_object_get_ex(reply, member, &value) || !json_object_is_type(value, json_type_array)) return NULL;
    size_t length = json_object_array_length(value);
    if (*count && length != *count) return NULL;
    for (size_t i = 0; i < length; i++)
        if (!json_object_is_type(json_object_array_get_idx(value, i), type)) return NULL;
    *count = length;
    return value;
}

l10nd_chain *l10nd_chain_make(json_object *reply, l10nd_fingerprint *fingerprint, const char *name,
                              size_t name_length, l10nd_error *err) {
    l10nd_chain *chain = calloc(1, sizeof *chain);
    if (!chain || !(chain->name = malloc(name_length))) goto memory;
    memcpy(chain->name, name, name_length);
    chain->name_length = name_length;
    chain->fingerprint = l10nd_fingerprint_retain(fingerprint);
    chain->refs = 1;
    if (!reply) {
        chain->refused = 1;
        return chain;
    }
    size_t count = 0;
    json_object *languages = list(reply, "languages", json_type_string, &count);
    json_object *fallback = languages ? list(reply, "fallback", json_type_boolean, &count) : NULL;
    json_object *pseudo = fallback ? list(reply, "pseudo", json_type_boolean, &count) : NULL;
    if (!pseudo) {
        chain_free(chain);
        l10nd_fail(err, L10ND_ERR_PROTOCOL, "l10nd's chain reply lacks languages, fallback or pseudo of one length");
        return NULL;
    }
    chain->languages = calloc(count ? count : 1, sizeof *chain->languages);
    chain->fallback = calloc(count ? count : 1, 1);
    chain->pseudo = calloc(count ? count : 1, 1);
    if (!chain->languages || !chain->fallback || !chain->pseudo) goto memory;
    for (size_t i = 0; i < count; i++) {
        chain->count = i + 1;
        if (!(chain->languages[i] = strdup(json_object_get_string(json_object_array_get_idx(languages, i)))))
            goto memory;
        chain->fallback[i] = (unsigned char)json_object_get_boolean(json_object_array_get_idx(fallback, i));
        chain->pseudo[i] = (unsigned char)json_object_get_boolean(json_object_array_get_idx(pseudo, i));
    }
    return chain;
memory:
    chain_free(chain);
    l10nd_fail(err, L10ND_ERR_MEMORY, "out of memory");
    return NULL;
}

l10nd_chain *l10nd_chains_get(l10nd_chains *chains, const l10nd_fingerprint *fingerprint, const char *name,
                              size_t name_length) {
    l10nd_chain *found = NULL;
    pthread_mutex_lock(&chains->mu);
    for (size_t i = 0; i < chains->count && !found; i++) {
        l10nd_chain *chain = chains->items[i];
        if (l10nd_fingerprint_equal(chain->fingerprint, fingerprint) && chain->name_length == name_length &&
            !memcmp(chain->name, name, name_length)) {
            __atomic_add_fetch(&chain->refs, 1, __ATOMIC_ACQ_REL);
            found = chain;
        }
    }
    pthread_mutex_unlock(&chains->mu);
    return found;
}

void l10nd_chains_keep(l10nd_chains *chains, l10nd_chain *chain) {
    pthread_mutex_lock(&chains->mu);
    /* Chains of another fingerprint are never asked for again (lookups read the newest), and a
     * full cache starts over: a server answering many Accept-Language headers asks again. */
    size_t kept = 0;
    for (size_t i = 0; i < chains->count; i++) {
        l10nd_chain *old = chains->items[i];
        if (l10nd_fingerprint_equal(old->fingerprint, chain->fingerprint) && chains->count < L10ND_CHAIN_CAPACITY) chains->items[kept++] = old;
        else l10nd_chain_release(old);
    }
    chains->count = kept;
    if (!chains->items) chains->items = calloc(L10ND_CHAIN_CAPACITY, sizeof *chains->items);
    if (chains->items) {
        __atomic_add_fetch(&chain->refs, 1, __ATOMIC_ACQ_REL);
        chains->items[chains->count++] = chain;
    }
    pthread_mutex_unlock(&chains->mu);
}

void l10nd_chains_clear(l10nd_chains *chains) {
    pthread_mutex_lock(&chains->mu);
    for (size_t i = 0; i < chains->count; i++) l10nd_chain_release(chains->items[i]);
    free(chains->items);
    chains->items = NULL;
    chains->count = 0;
    pthread_mutex_unlock(&chains->mu);
}

int l10nd_chain_answer(const l10nd_mapping *m, const l10nd_chain *chain, const char *table, const char *key,
                       l10nd_result *result, int *report, l10nd_error *err) {
    *report = 0;
    if (chain->refused) return 0;
    /* The first candidate whose own segment has the key answers (a stand-in too), as
     * SegmentProbe walks the chain. */
    for (size_t i = 0; i < chain->count; i++) {
        char *value = NULL;
        int found = l10nd_mapping_probe(m, chain->languages[i], table, key, &value, err);
        if (found < 0) return found;
        if (found == L10ND_PROBE_ASK) return 0;
        if (found == L10ND_PROBE_ABSENT) {
            /* A pseudo-language lacking the key answers the development language's entry,
             * transformed: the daemon's to make. */
            if (chain->pseudo[i]) return 0;
            continue;
        }
        result->value = value;
        if (!(result->lang = strdup(chain->languages[i]))) {
            free(value);
            result->value = NULL;
            return -l10nd_fail(err, L10ND_ERR_MEMORY, "out of memory");
        }
        result->found = 1;
        result->generation = l10nd_mapping_generation(m);
        *report = chain->fallback[i];
        return 1;
    }
    /* Found nowhere: the key itself, as the daemon answers a miss. */
    if (!(result->value = strdup(key))) return -l10nd_fail(err, L10ND_ERR_MEMORY, "out of memory");
    result->found = 0;
    result->generation = l10nd_mapping_generation(m);
    *report = 1;
    return 1;
}
