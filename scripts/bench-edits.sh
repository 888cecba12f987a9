#!/usr/bin/env bash
# Whole-process benchmarks of `green errant-compare` and `green cleme` (median wall time with
# hyperfine) on the CLEME repository's CoNLL-2014 files in ../shared/data/cleme, and, with
# ORIGINAL=1, ERRANT 3.0.2's errant_compare side by side (its source: ERRANT_SRC or the local
# mirror of github.com/chrisjbryant/errant).
#
#   bash scripts/bench-edits.sh
#   ORIGINAL=1 bash scripts/bench-edits.sh
set -euo pipefail
cd "$(dirname "$0")/.."
shared="${GREEN_SHARED:-$(cd .. && pwd)/shared}"
cargo build --release --locked -q -p green-cli
green="$PWD/target/release/green"
command -v hyperfine >/dev/null || { echo "bench-edits.sh needs hyperfine: apt-get install hyperfine" >&2; exit 1; }
median_ms() {
    local json
    json="$(mktemp)"
    hyperfine -N -w 3 -r 20 --export-json "$json" "$*" >/dev/null 2>&1
    python3 -c "import json,statistics,sys; print('%.1f' % (1000*statistics.median(json.load(open(sys.argv[1]))['results'][0]['times'])))" "$json"
    rm -f "$json"
}
d="$shared/data/cleme"
all="$(ls "$d"/conll14-*.errant | tr '\n' ' ')"
echo "| run | median wall |"
echo "| --- | --- |"
echo "| errant-compare, CoNLL-14 AMU | $(median_ms "$green errant-compare -hyp $d/conll14-AMU.errant -ref $d/conll14.errant") ms |"
echo "| errant-compare, 13 systems in one call | $(median_ms "$green errant-compare -hyp $all -ref $d/conll14.errant") ms |"
echo "| cleme (all four variants), CoNLL-14 AMU | $(median_ms "$green cleme -hyp $d/conll14-AMU.errant -ref $d/conll14.errant") ms |"
echo "| cleme, 13 systems in one call | $(median_ms "$green cleme -hyp $all -ref $d/conll14.errant") ms |"
if [ "${ORIGINAL:-0}" = 1 ]; then
    src="${ERRANT_SRC:-/work/.mirror/chrisjbryant+errant/repo}"
    tmp="$(mktemp -d)"
    git --git-dir "$src" show v3.0.2:errant/commands/compare_m2.py > "$tmp/compare_m2.py"
    echo "| original errant_compare (3.0.2), AMU | $(median_ms "python3 $tmp/compare_m2.py -hyp $d/conll14-AMU.errant -ref $d/conll14.errant") ms |"
    rm -rf "$tmp"
fi
