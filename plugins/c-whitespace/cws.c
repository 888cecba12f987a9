/*
 * cws: a green tokenizer plugin in plain C (no Rust), splitting on whitespace exactly like
 * Python's str.split() and green's built-in `word` tokenizer: ASCII \t \n \v \f \r, space,
 * the separators 0x1C-0x1F, and the Unicode White_Space characters (U+0085, U+00A0,
 * U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000).
 *
 * Tokens are spans of the input (no copying). No configuration; stateless; thread-safe.
 *
 * Build: cc -std=c11 -shared -fPIC -O2 -o libgreen_cws.so cws.c -I ../../crates/green-plugin-api/include
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "green_plugin.h"

static _Thread_local char last_error_message[256];

/* Length in bytes of the whitespace character at s[0] (n bytes left), or 0 if none. */
static size_t whitespace_len(const unsigned char *s, size_t n) {
    unsigned char c = s[0];
    if ((c >= 0x09 && c <= 0x0D) || c == 0x20 || (c >= 0x1C && c <= 0x1F)) return 1;
    if (c < 0x80) return 0;
    if (c == 0xC2 && n >= 2 && (s[1] == 0x85 || s[1] == 0xA0)) return 2;
    if (c == 0xE1 && n >= 3 && s[1] == 0x9A && s[2] == 0x80) return 3; /* U+1680 */
    if (c == 0xE2 && n >= 3) {
        if (s[1] == 0x80 && ((s[2] >= 0x80 && s[2] <= 0x8A) || s[2] == 0xA8 || s[2] == 0xA9 || s[2] == 0xAF)) return 3;
        if (s[1] == 0x81 && s[2] == 0x9F) return 3; /* U+205F */
    }
    if (c == 0xE3 && n >= 3 && s[1] == 0x80 && s[2] == 0x80) return 3; /* U+3000 */
    return 0;
}

static int32_t cws_create(const char *config, void **handle) {
    if (config != NULL && config[0] != '\0') {
        snprintf(last_error_message, sizeof last_error_message, "cws takes no configuration, got '%.200s'", config);
        return 1;
    }
    *handle = NULL; /* stateless */
    return GREEN_PLUGIN_OK;
}

static void cws_destroy(void *handle) { (void)handle; }

static int32_t cws_tokenize(void *handle, const char *input, size_t input_len, GreenTokens *out) {
    const unsigned char *s = (const unsigned char *)input;
    GreenSpan *spans;
    size_t count = 0, i = 0;
    (void)handle;
    if (input_len == 0) return GREEN_PLUGIN_OK;
    /* At most one token per two bytes, plus one. */
    spans = malloc((input_len / 2 + 1) * sizeof *spans);
    if (spans == NULL) {
        snprintf(last_error_message, sizeof last_error_message, "out of memory");
        return 1;
    }
    while (i < input_len) {
        size_t start, w;
        while (i < input_len && (w = whitespace_len(s + i, input_len - i)) > 0) i += w;
        start = i;
        while (i < input_len && whitespace_len(s + i, input_len - i) == 0) i++;
        if (i > start) {
            spans[count].start = start;
            spans[count].len = i - start;
            count++;
        }
    }
    out->spans = spans;
    out->count = count;
    out->owner = spans;
    return GREEN_PLUGIN_OK;
}

static void cws_free_tokens(void *handle, GreenTokens *tokens) {
    (void)handle;
    free(tokens->owner);
    memset(tokens, 0, sizeof *tokens);
}

static const char *cws_last_error(void *handle) {
    (void)handle;
    return last_error_message;
}

static const GreenPlugin descriptor = {
    GREEN_PLUGIN_ABI_VERSION,
    GREEN_PLUGIN_THREAD_SAFE,
    "cws",
    "1.0.0",
    cws_create,
    cws_destroy,
    cws_tokenize,
    cws_free_tokens,
    cws_last_error,
};

const GreenPlugin *green_plugin_entry(void) { return &descriptor; }
