#!/usr/bin/env bash
# The README's quick-start command, exactly as written, must print what the README shows.
set -euo pipefail
cmd="$(grep -m1 '^cargo run --release -p green-cli -- ' README.md)"
expected="$(printf 'alpha\t0.20\nbeta\t2.00\nexamples/data/system.txt\t74.98')"
actual="$(bash -c "$cmd")"
if [ "$actual" != "$expected" ]; then
    echo "README quick start: '$cmd' printed:" >&2
    echo "$actual" >&2
    exit 1
fi
grep -qF "$(printf 'examples/data/system.txt\t74.98')" README.md || { echo "README no longer shows the quick-start output" >&2; exit 1; }
echo "README quick start prints what the README shows"
