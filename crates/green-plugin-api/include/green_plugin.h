/*
 * green_plugin.h: the stable C ABI of a green tokenizer plugin, ABI version 1.
 *
 * A plugin is a shared library exporting one function, green_plugin_entry, that returns a
 * pointer to a static GreenPlugin descriptor. The host (green) checks abi_version, calls
 * create once with the user's configuration string, then tokenize once per line of text.
 *
 * Tokens come back as byte spans (start, len) into one UTF-8 text:
 *   - the input itself when GreenTokens.text is NULL (segmenters: no copying), or
 *   - a buffer owned by the plugin when GreenTokens.text is not NULL (normalising plugins).
 * Every span must be non-empty, lie inside that text and start and end on UTF-8 character
 * boundaries; the text must be valid UTF-8; count must not exceed the number of bytes
 * (input_len + text_len). The host checks all of this and reports a violation as an error.
 *
 * Memory: the plugin owns everything it returns. After every tokenize call, success or not,
 * the host calls free_tokens exactly once on the same GreenTokens (it starts zeroed), from
 * the same thread, before calling tokenize again with that GreenTokens.
 *
 * Errors: create and tokenize return GREEN_PLUGIN_OK (0) on success, anything else on
 * failure; the host then calls last_error(handle) on the same thread (handle is NULL after a
 * failed create) and shows the NUL-terminated UTF-8 message, which must stay valid until the
 * next call into the plugin on that thread. A thread-local or per-handle buffer is fine.
 *
 * Threads: with GREEN_PLUGIN_THREAD_SAFE in flags, tokenize may be called concurrently on
 * one handle from several threads; without it the host calls the plugin from one thread
 * at a time. Plugins must not let C++ exceptions or Rust panics escape any function.
 *
 * Rust: crates/green-plugin-api; the test tests/header_drift.rs keeps this file and the Rust
 * definitions identical. Guide: README.md (Tokenizer plugins).
 */
#ifndef GREEN_PLUGIN_H
#define GREEN_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ABI version this header describes; the host rejects any other value. */
#define GREEN_PLUGIN_ABI_VERSION 1
/* Bit in GreenPlugin.flags: tokenize may run concurrently on one handle. */
#define GREEN_PLUGIN_THREAD_SAFE 1
/* Return value of create and tokenize on success; any other value is a failure. */
#define GREEN_PLUGIN_OK 0
/* The one symbol the host looks up. */
#define GREEN_PLUGIN_ENTRY_SYMBOL "green_plugin_entry"

/* A token: bytes [start, start + len) of the text (see GreenTokens.text). */
typedef struct GreenSpan {
    size_t start;
    size_t len;
} GreenSpan;

/* The tokens of one line, filled by tokenize and released by free_tokens. */
typedef struct GreenTokens {
    const GreenSpan *spans;   /* count spans, in order */
    size_t count;
    const char *text;         /* NULL: spans index the input; else a UTF-8 buffer of text_len bytes */
    size_t text_len;
    void *owner;              /* private to the plugin, for free_tokens; the host never reads it */
} GreenTokens;

/* The descriptor returned by green_plugin_entry. abi_version stays the first field forever. */
typedef struct GreenPlugin {
    uint32_t abi_version;     /* GREEN_PLUGIN_ABI_VERSION */
    uint32_t flags;           /* 0 or GREEN_PLUGIN_THREAD_SAFE */
    const char *name;         /* NUL-terminated, 1-64 of [A-Za-z0-9._-], e.g. "cws" */
    const char *version;      /* NUL-terminated, e.g. "1.0.0" */
    /* config: NUL-terminated UTF-8, "" when none given. Sets *handle (may be NULL). */
    int32_t (*create)(const char *config, void **handle);
    void (*destroy)(void *handle);
    /* input: input_len bytes of valid UTF-8, not NUL-terminated. */
    int32_t (*tokenize)(void *handle, const char *input, size_t input_len, GreenTokens *out);
    void (*free_tokens)(void *handle, GreenTokens *tokens);
    const char *(*last_error)(void *handle);
} GreenPlugin;

/* Export this from the shared library, with this exact name and C linkage. */
const GreenPlugin *green_plugin_entry(void);

#ifdef __cplusplus
}
#endif

#endif /* GREEN_PLUGIN_H */
