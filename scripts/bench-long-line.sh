#!/usr/bin/env bash
# Cost of one very long line against the same text as short lines: wall time, time per MB
# and peak RSS of one run of the `green` binary, word N=4 and char N=6, on single-line
# corpora of each size (scripts/long-line.py; 1, 5 and 15 MB per file by default) and the
# same tokens broken into lines of 30 source tokens. Counting is linear in line length, so
# the time per MB of the long lines stays flat as they grow.
#
#   bash scripts/bench-long-line.sh              # sizes 1 5 15 (MB), data in target/long-line
#   bash scripts/bench-long-line.sh 1 2 4 8 15
#   GREEN=/path/to/green bash scripts/bench-long-line.sh 1   # another binary
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${GREEN:-}" ]; then
    cargo build --release --locked -q -p green-cli --bin green
    GREEN="$PWD/target/release/green"
fi
data="target/long-line"
[ $# -gt 0 ] || set -- 1 5 15

echo "| input | lines | wall | per MB | peak RSS |"
echo "| --- | ---: | ---: | ---: | ---: |"
for mb in "$@"; do
    for level in word char; do
        flags=() opts=()
        [ "$level" = char ] && flags=(--char) opts=(-t char -n 6)
        for lines in 1 30; do
            dir="$data/$level-$mb-$lines"
            if [ ! -f "$dir/hyp.txt" ]; then
                split=()
                [ "$lines" = 30 ] && split=(--lines 30)
                python3 scripts/long-line.py "${flags[@]}" "${split[@]}" "$mb" "$dir"
            fi
            out=$( { /usr/bin/time -f '%e %M' "$GREEN" "${opts[@]}" \
                -s "$dir/src.txt" -r "$dir/ref.txt" -c "$dir/hyp.txt" >/dev/null; } 2>&1)
            read -r secs kib <<<"$(tail -n 1 <<<"$out")"
            python3 -c 'import sys; mb, s = float(sys.argv[2]), float(sys.argv[4]); print(
                f"| {sys.argv[1]} {sys.argv[2]} MB | {sys.argv[3]} | {s:.2f} s | {s / mb:.3f} s"
                f" | {int(sys.argv[5]) // 1024} MiB |")' \
                "$level" "$mb" "$(wc -l <"$dir/src.txt")" "$secs" "$kib"
        done
    done
done
