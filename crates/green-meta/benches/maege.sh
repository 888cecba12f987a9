#!/usr/bin/env bash
# MAEGE benchmark (issue 6: sentence + corpus level, one GREEN configuration, CoNLL-14 M2, <= 5 s).
# Usage: crates/green-meta/benches/maege.sh [path/to/shared]   (builds the release `green` first)
# Prints the wall time of the whole process (parse, draw, count, score, print) for 3 runs,
# then for the English and Chinese tables of docs/maege.md.
set -euo pipefail
cd "$(dirname "$0")/../../.."
shared="${1:-${GREEN_SHARED:-../shared}}"
cargo build --release -q -p green-cli
green=target/release/green
m2="$shared/data/conll14/conll14st-test.m2"
zh="$shared/data/zh/nlpcc18/nlpcc2018_official.ref.m2.char"
run() {
    local label="$1"; shift
    local start end
    start=$(date +%s%N)
    "$green" maege "$@" >/dev/null
    end=$(date +%s%N)
    printf '%-55s %6d ms\n' "$label" $(( (end - start) / 1000000 ))
}
for i in 1 2 3; do run "CoNLL-14, GREEN word N=4 beta=2 (run $i)" "$m2" -t word -n 4 -b 2; done
RAYON_NUM_THREADS=1 run "CoNLL-14, GREEN word N=4 beta=2, RAYON_NUM_THREADS=1" "$m2" -t word -n 4 -b 2
run "CoNLL-14, English table (20 configurations)" "$m2" -t word char -n 1,2,4 -b 0.5,1,2 --gleu
run "NLPCC-18, Chinese table (26 configurations)" "$zh" --strip-spaces -t zh zh:char -n 1,2,4,6 -b 0.5,1,2 --gleu
