/* c-reply: what the C client (clients/c) reads from the daemon, fed any bytes. The stream is
 * cut into lines as the client cuts it (line_reader, take_line); each line is routed as the
 * shared client routes replies (reply_for_line), read as a lookup's reply, a finished
 * string's, and a batch's of 0 to 4 keys (the count from the first byte), and read as a
 * subscription's event, and as a `chain` reply (l10nd_chain_make), which is kept and let go.
 * Beyond "no crash, no leak": a reader that says L10ND_OK filled
 * every string it promises, one that fails left its results zeroed and said why, and the
 * lines taken are exactly the newline-ended pieces of the input. */
#include "l10nd.c"
#include "l10nd_segments.c" /* what l10nd.c calls for mapped lookups */
#include "l10nd_chains.c"   /* the chains mapped lookups walk */

#include <stdint.h>

static void require(int condition, const char *what) {
    if (!condition) {
        fprintf(stderr, "c-reply: %s\n", what);
        abort();
    }
}

static int zeroed(const l10nd_result *r) { return !r->value && !r->lang && !r->formatted && !r->found; }

static void read_as_replies(const char *line, size_t keys) {
    json_object *reply = NULL;
    long long id = 0;
    if (!reply_for_line(line, &reply, &id) || !reply) return;
    for (int want_formatted = 0; want_formatted < 2; want_formatted++) {
        l10nd_result result = {0};
        l10nd_error err = {0};
        int code = read_lookup_reply(reply, want_formatted, &result, &err);
        if (code == L10ND_OK) {
            require(result.value != NULL, "a lookup read as ok has no value");
            require(!want_formatted || result.formatted != NULL, "a finished string read as ok has none");
        } else {
            require(zeroed(&result), "a refused lookup reply left a result behind");
            require(err.code == code && err.message[0], "a refused lookup reply said nothing");
        }
        l10nd_result_free(&result);
    }
    l10nd_result results[4];
    memset(results, 0, sizeof results);
    l10nd_error err = {0};
    int code = read_batch_reply(reply, keys, results, &err);
    for (size_t i = 0; i < keys; i++) {
        if (code == L10ND_OK) require(results[i].value != NULL, "a batch read as ok lacks a value");
        else require(zeroed(&results[i]), "a refused batch reply left a result behind");
        l10nd_result_free(&results[i]);
    }
    require(code == L10ND_OK || err.message[0], "a refused batch reply said nothing");
    l10nd_error chain_err = {0};
    l10nd_chain *chain = l10nd_chain_make(reply, NULL, "de\0\1\0", 5, &chain_err);
    if (chain) {
        require(!chain->refused && chain->refs == 1, "a chain made from a reply is refused or shared");
        for (size_t i = 0; i < chain->count; i++) require(chain->languages[i] != NULL, "a chain lacks a language");
        l10nd_chains chains = {.mu = PTHREAD_MUTEX_INITIALIZER};
        l10nd_chains_keep(&chains, chain);
        l10nd_chain *kept = l10nd_chains_get(&chains, NULL, "de\0\1\0", 5);
        require(kept == chain, "a kept chain is not found");
        l10nd_chain_release(kept);
        l10nd_chain_release(chain);
        l10nd_chains_clear(&chains);
    } else {
        require(chain_err.code == L10ND_ERR_PROTOCOL && chain_err.message[0], "a refused chain reply said nothing");
    }
    json_object_put(reply);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    size_t keys = size ? data[0] % 5 : 0;
    line_reader reader = {0};
    if (size) {
        reader.data = malloc(size);
        require(reader.data != NULL, "out of memory");
        memcpy(reader.data, data, size);
        reader.length = reader.capacity = size;
    }
    size_t taken = 0, lines = 0;
    char *line;
    while ((line = take_line(&reader))) {
        taken += strlen(line);
        lines++;
        read_as_replies(line, keys);
        l10nd_event event = {0};
        if (read_event(line, &event)) require(!event.reconnected, "an event line read as a reconnection");
        free(line);
    }
    size_t newlines = 0;
    for (size_t i = 0; i < size; i++) newlines += data[i] == '\n';
    require(lines == newlines, "take_line did not return one line per newline");
    require(taken <= size - newlines && reader.length <= size, "take_line returned more bytes than it was given");
    free(reader.data);
    return 0;
}
