#!/usr/bin/env bash
# The README's quick-start command, exactly as written (its `$ cargo run ...` line), must print
# what the README shows, and the README must still give the test command. (31-docs.sh runs
# every other example of the README and docs/.)
set -euo pipefail
cmd="$(grep -m1 '^\$ cargo run --release -p green-cli -- ' README.md | sed 's/^\$ //')"
[ -n "$cmd" ] || { echo "README has no '\$ cargo run --release -p green-cli -- ...' quick-start line" >&2; exit 1; }
expected="$(printf 'alpha\t0.20\nbeta\t2.00\nexamples/data/system.txt\t74.98')"
actual="$(bash -c "$cmd")"
if [ "$actual" != "$expected" ]; then
    echo "README quick start: '$cmd' printed:" >&2
    echo "$actual" >&2
    exit 1
fi
grep -qF "$(printf 'examples/data/system.txt\t74.98')" README.md || { echo "README no longer shows the quick-start output" >&2; exit 1; }
grep -qx 'cargo test --workspace' README.md || { echo "README no longer gives the test command 'cargo test --workspace'" >&2; exit 1; }
echo "README quick start prints what the README shows"
# The release binary the quick start built lays out its hot code in the order of
# crates/green-cli/code-order.txt (scripts/code-order.py says why); a stale list fails here.
python3 scripts/code-order.py --check target/release/green
