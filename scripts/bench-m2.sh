#!/usr/bin/env bash
# Whole-process benchmarks of `green maxmatch` (median wall time with hyperfine), the worst
# sentence's growth with its length, and, with ORIGINAL=1, the NUS m2scorer side by side on
# one system (its source: M2SCORER_SRC or the local mirror; Python 2.7: PYTHON2).
#
#   bash scripts/bench-m2.sh
#   ORIGINAL=1 bash scripts/bench-m2.sh
set -euo pipefail
cd "$(dirname "$0")/.."
shared="${GREEN_SHARED:-$(cd .. && pwd)/shared}"
cargo build --release --locked -q -p green-cli
green="$PWD/target/release/green"
command -v hyperfine >/dev/null || { echo "bench-m2.sh needs hyperfine: apt-get install hyperfine" >&2; exit 1; }
median_ms() {
    local json
    json="$(mktemp)"
    hyperfine -N -w 3 -r 20 --export-json "$json" "$*" >/dev/null 2>&1
    python3 -c "import json,statistics,sys; print('%.1f' % (1000*statistics.median(json.load(open(sys.argv[1]))['results'][0]['times'])))" "$json"
    rm -f "$json"
}
c="$shared/data/conll14"
n="$shared/data/zh/nlpcc18/nlpcc2018_official.ref.m2.char"
echo "| run | median wall |"
echo "| --- | --- |"
echo "| CoNLL-14 AMU | $(median_ms "$green maxmatch $c/systems/AMU.txt $c/conll14st-test.m2") ms |"
echo "| CoNLL-14 NTHU (line 41: 54 × 37 tokens) | $(median_ms "$green maxmatch $c/systems/NTHU.txt $c/conll14st-test.m2") ms |"
echo "| CoNLL-14, 13 systems in one call | $(median_ms "$green maxmatch $(ls "$c"/systems/*.txt | tr '\n' ' ') $c/conll14st-test.m2") ms |"
echo "| NLPCC-18 (2,000 sentences) | $(median_ms "$green maxmatch $shared/golden/m2/nlpcc18/system.txt $n") ms |"
# The worst case: a line that shares no token with its source puts every cell of the
# (n+1) × (n+1) matrix in the lattice, and the closure joins every pair of them.
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for len in 20 30 40 50 60 70; do
    python3 -c "import sys; n=int(sys.argv[1]); open(sys.argv[2]+'/g.m2','w').write('S '+' '.join('s%d'%i for i in range(n))+'\n'); open(sys.argv[2]+'/h.txt','w').write(' '.join('h%d'%i for i in range(n))+'\n')" "$len" "$tmp"
    if "$green" maxmatch "$tmp/h.txt" "$tmp/g.m2" >/dev/null 2>&1; then
        echo "| one unrelated $len-token line | $(median_ms "$green maxmatch $tmp/h.txt $tmp/g.m2") ms |"
    else
        echo "| one unrelated $len-token line | refused: lattice over 5,000 vertices |"
    fi
done
if [ -n "${ORIGINAL:-}" ]; then
    src="${M2SCORER_SRC:-/work/.mirror/nusnlp+m2scorer/repo}"
    py2="${PYTHON2:-$HOME/.pyenv/versions/2.7.18/bin/python2.7}"
    git --git-dir "$src" archive HEAD scripts | tar -x -C "$tmp"
    s=$(date +%s.%N)
    "$py2" "$tmp/scripts/m2scorer.py" "$c/systems/AMU.txt" "$c/conll14st-test.m2" >/dev/null
    echo "| original m2scorer, CoNLL-14 AMU (one run) | $(python3 -c "import sys; print('%.0f' % (1000*(float(sys.argv[2])-float(sys.argv[1]))))" "$s" "$(date +%s.%N)") ms |"
fi
