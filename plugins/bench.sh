#!/usr/bin/env bash
# Benchmark: whole-process time of scoring CoNLL-14 AMU at word level (N=4, beta=2) with the
# built-in whitespace tokenizer versus the Rust regex plugin configured as a whitespace
# split (`split:\s+`). Prints the medians and the plugin's overhead; docs/plugins.md quotes it.
# Usage: plugins/bench.sh [RUNS]   (from the repository root; needs ../shared or GREEN_SHARED)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-30}"
data="${GREEN_SHARED:-$(cd .. && pwd)/shared}/data/conll14"
test -f "$data/systems/AMU.txt" || { echo "bench: $data/systems/AMU.txt not found; set GREEN_SHARED" >&2; exit 1; }
[ -n "${GREEN_BENCH_NO_BUILD:-}" ] || cargo build --release --locked -q -p green-cli -p green-plugin-regex
green="$PWD/target/release/green"
plugin="$PWD/target/release/libgreen_regex.so"
args=(-s "$data/source.txt" -r "$data/ref0.txt" "$data/ref1.txt" -c "$data/systems/AMU.txt" -b 2)
diff <("$green" "${args[@]}" -t word) <("$green" "${args[@]}" -t "plugin:$plugin" --plugin-config 'split:\s+')

# Wall time in microseconds of one run.
run_us() {
    local start end
    start=$(date +%s%N)
    "$@" > /dev/null
    end=$(date +%s%N)
    echo $(( (end - start) / 1000 ))
}
median_ms() { sort -n | awk '{ a[NR] = $1 } END { m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.2f\n", m / 1000 }'; }

# Alternate the two commands so background load hits both alike; 3 warm-up runs each.
builtin_us=() via_us=()
for i in $(seq $(( runs + 3 ))); do
    b=$(run_us "$green" "${args[@]}" -t word)
    v=$(run_us "$green" "${args[@]}" -t "plugin:$plugin" --plugin-config 'split:\s+')
    if [ "$i" -gt 3 ]; then builtin_us+=("$b"); via_us+=("$v"); fi
done
builtin=$(printf '%s\n' "${builtin_us[@]}" | median_ms)
via=$(printf '%s\n' "${via_us[@]}" | median_ms)
echo "built-in word:          median ${builtin} ms over $runs runs"
echo "regex plugin split:\s+: median ${via} ms over $runs runs"
awk -v a="$builtin" -v b="$via" 'BEGIN { printf "plugin overhead: %+.1f%% (limit +15%%)\n", (b / a - 1) * 100; exit !(b <= a * 1.15) }'
