#!/usr/bin/env bash
# Tokenizer plugins, the way a user meets them (docs/plugins.md): build the Rust regex
# plugin with cargo and the C whitespace plugin with plain `cc`, list them with
# `green plugins`, score CoNLL-14 AMU through each and require the built-in `word` scores
# byte for byte; build every deliberately broken plugin and require one error line and
# exit code 1 from each. (The unit and integration tests ran in 20-test.sh.)
set -euo pipefail
source .ci/ci-test.sh
ci_bins
green="$PWD/target/ci-test/green"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT

# The C plugin, exactly as plugins/c-whitespace/README.md says.
cc -std=c11 -Wall -Wextra -Werror -shared -fPIC -O2 -o "$dir/libgreen_cws.so" \
    plugins/c-whitespace/cws.c -I crates/green-plugin-api/include
cp target/ci-test/deps/libgreen_regex.so "$dir/"
export GREEN_PLUGIN_PATH="$dir"
"$green" plugins | tee "$dir/listing.txt"
grep -Eq '^cws +1\.0\.0 +1 +yes ' "$dir/listing.txt"
grep -Eq '^regex +[0-9.]+ +1 +yes ' "$dir/listing.txt"

data="$GREEN_SHARED/data/conll14"
test -f "$data/systems/AMU.txt" || { echo "40-plugins: $data/systems/AMU.txt not found; set GREEN_SHARED" >&2; exit 1; }
score() { "$green" -s "$data/source.txt" -r "$data/ref0.txt" "$data/ref1.txt" -c "$data/systems/AMU.txt" -b 0.5 2 -v "$@"; }
score -t word > "$dir/word.txt"
score -t plugin:cws > "$dir/cws.txt"
score -t plugin:regex --plugin-config 'split:\s+' > "$dir/regex.txt"
diff "$dir/word.txt" "$dir/cws.txt"
diff "$dir/word.txt" "$dir/regex.txt"
echo "plugins: cws and regex score CoNLL-14 AMU exactly like -t word"

# Broken plugins: one clear error line, exit code 1, no crash.
mkdir "$dir/broken"
for mode in NO_ENTRY BAD_ABI OUT_OF_BOUNDS SPLIT_UTF8 BAD_UTF8 FAIL HUGE_COUNT; do
    lib="$dir/broken/lib_$mode.so"
    cc -std=c11 -D_POSIX_C_SOURCE=199309L -D"$mode" -shared -fPIC -o "$lib" \
        crates/green-plugin/tests/fixtures/broken.c -I crates/green-plugin-api/include
    set +e
    # SPLIT_UTF8 cuts the first byte off a line, so give it a line starting with 'é'.
    printf 'é a\n' > "$dir/u.txt"
    if [ "$mode" = SPLIT_UTF8 ]; then
        "$green" -s "$dir/u.txt" -r "$dir/u.txt" -c "$dir/u.txt" -t "plugin:$lib" 2> "$dir/err.txt" > /dev/null
    else
        score -t "plugin:$lib" 2> "$dir/err.txt" > /dev/null
    fi
    code=$?
    set -e
    echo "$mode: exit $code: $(cat "$dir/err.txt")"
    [ "$code" -eq 1 ] && [ "$(wc -l < "$dir/err.txt")" -eq 1 ] && grep -q '^green: error: ' "$dir/err.txt" \
        || { echo "40-plugins: broken plugin $mode did not fail with one error line and exit 1" >&2; exit 1; }
done
# A Rust plugin that panics: the panicky fixture, built as a cdylib (by ci_bins).
set +e
score -t "plugin:$PWD/target/ci-test/deps/libgreen_panicky.so" --plugin-config panic 2> "$dir/err.txt" > /dev/null
code=$?
set -e
echo "PANIC: exit $code: $(cat "$dir/err.txt")"
[ "$code" -eq 1 ] && [ "$(wc -l < "$dir/err.txt")" -eq 1 ] && grep -q 'panicked at ' "$dir/err.txt"
echo "plugins: every broken plugin failed cleanly"
