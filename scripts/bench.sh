#!/usr/bin/env bash
# Whole-process benchmarks of the `green` binary (median wall time of several runs, peak RSS),
# printed as a Markdown table. Needs ../shared (or GREEN_SHARED) and hyperfine (apt-get install hyperfine).
#
#   bash scripts/bench.sh            # CoNLL-14, MuCGEC, and the 10k/100k/1M synthetic corpora
#   RUNS=5 bash scripts/bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
shared="${GREEN_SHARED:-$(cd .. && pwd)/shared}"
runs="${RUNS:-3}"
cargo build --release --locked -q -p green-cli
green="$PWD/target/release/green"
command -v hyperfine >/dev/null || { echo "bench.sh needs hyperfine: apt-get install hyperfine" >&2; exit 1; }

median_ms() { # command... -> median wall ms over 30 runs
    local json
    json="$(mktemp)"
    hyperfine -N -w 5 -r 30 --export-json "$json" "$*" >/dev/null 2>&1
    python3 -c "import json,statistics,sys; print('%.1f' % (1000*statistics.median(json.load(open(sys.argv[1]))['results'][0]['times'])))" "$json"
    rm -f "$json"
}

echo "| run | median wall | peak RSS |"
echo "| --- | --- | --- |"
c="$shared/data/conll14"
for spec in "word 4" "char 6"; do
    set -- $spec
    ms=$(cd "$c" && median_ms "$green -s source.txt -r ref0.txt ref1.txt -c systems/AMU.txt -b 2 -t $1 -n $2")
    rss=$( (cd "$c" && /usr/bin/time -f %M "$green" -s source.txt -r ref0.txt ref1.txt -c systems/AMU.txt -b 2 -t "$1" -n "$2" >/dev/null) 2>&1)
    echo "| CoNLL-14 AMU, $1 N=$2, beta 2 | $ms ms | $((rss / 1024)) MiB |"
done
m="$shared/data/zh/mucgec/MuCGEC_dev.txt"
first="$(mktemp)"
cut -f3 "$m" > "$first"
ms=$(median_ms "$green -r $m --ref-format para -c $first -t zh -b 2")
echo "| MuCGEC dev (1,137 sentences, 1-7 refs), jieba words (-t zh) | $ms ms | |"
rm -f "$first"

data="target/bench-data"
if [ ! -f "$data/1000000/hyp.txt" ]; then
    python3 scripts/gen_corpus.py 1000000 "$data/1000000"
fi
for n in 10000 100000; do
    mkdir -p "$data/$n"
    for f in source ref0 ref1 hyp; do head -n "$n" "$data/1000000/$f.txt" > "$data/$n/$f.txt"; done
done
for n in 10000 100000 1000000; do
    walls=()
    rss=0
    for _ in $(seq "$runs"); do
        out=$( (cd "$data/$n" && /usr/bin/time -f "%e %M" "$green" -s source.txt -r ref0.txt ref1.txt -c hyp.txt -b 2 >/dev/null) 2>&1)
        walls+=("${out% *}")
        r="${out#* }"
        [ "$r" -gt "$rss" ] && rss="$r"
    done
    med=$(printf '%s\n' "${walls[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    echo "| synthetic $n lines (source, 2 refs, 1 system), word N=4 | ${med} s | $((rss / 1024)) MiB |"
done
