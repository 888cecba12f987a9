#!/usr/bin/env bash
# `green report` in a real browser (issue 40): Debian's chromium, headless, driven over the
# DevTools protocol on a pipe by scripts/report-browser.py (standard library only; no
# network: the script fails on any request that is not the file itself). It checks that
# every number the CoNLL-2014 page shows (13 systems; the static tables and the totals the
# page's script counts from the sentence data) equals `green report --format json`, uses
# the sentence browser's link, filters and search, renders NLPCC-2018 at character level,
# and opens a generated 10^5-sentence report within 30 s (a watchdog, not a benchmark; it
# loads in about a second). The docs' screenshot (docs/img/report.png) is made the same
# way: GREEN_SCREENSHOT=1 bash .ci/steps/55-report.sh writes it. The build names the same
# packages as steps 40 and 50, so their green binary is reused rather than rebuilt.
set -euo pipefail
test -d "$GREEN_SHARED/data" || { echo "55-report: $GREEN_SHARED/data not found; put ../shared beside the repository or set GREEN_SHARED" >&2; exit 1; }
if ! command -v chromium > /dev/null; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium
fi
source .ci/ci-test.sh
ci_bins
green="$PWD/target/ci-test/green"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
d="$GREEN_SHARED/data/conll14"

# CoNLL-2014: 13 systems, the gold M2 file as reference (so M2 and the gold categories too).
args=(-s "$d/source.txt" -r "$d/conll14st-test.m2" -c "$d"/systems/*.txt --metrics green,m2,errant)
"$green" report "${args[@]}" -o "$tmp/conll14.html"
"$green" report "${args[@]}" --format json -o "$tmp/conll14.json"
python3 scripts/report-browser.py "$tmp/conll14.html" --json "$tmp/conll14.json" --interact --screenshot "$tmp/conll14.png"
test -s "$tmp/conll14.png"

# NLPCC-2018, character level.
n="$GREEN_SHARED/data/zh/nlpcc18/nlpcc2018_official.ref.m2.char"
zh=(-r "$n" -c "$GREEN_SHARED/golden/m2/nlpcc18/system.txt" -t char --metrics green,m2,errant)
"$green" report "${zh[@]}" -o "$tmp/nlpcc18.html"
"$green" report "${zh[@]}" --format json -o "$tmp/nlpcc18.json"
python3 scripts/report-browser.py "$tmp/nlpcc18.html" --json "$tmp/nlpcc18.json" --interact

# The request check itself: the same small page with one outside request added (an image, a
# script's fetch, a local file) must fail it, or the checks above prove nothing.
"$green" report -s examples/data/source.txt -r examples/data/ref{0,1}.txt -c examples/data/system.txt -o "$tmp/small.html"
python3 scripts/report-browser.py "$tmp/small.html"
for tamper in 's|</body>|<img src="http://127.0.0.1:9/x.png"></body>|' \
    's|</body>|<script>fetch("https://cdn.example.org/x.js").catch(() => {})</script></body>|' \
    's|<head>|<head><link rel="stylesheet" href="file:///etc/hostname">|'; do
    sed "$tamper" "$tmp/small.html" > "$tmp/tampered.html"
    if python3 scripts/report-browser.py "$tmp/tampered.html" 2> "$tmp/tampered.err"; then
        echo "55-report: a page with an outside request passed the request check ($tamper)" >&2
        exit 1
    fi
    grep -q "asked for 1 other resource" "$tmp/tampered.err"
done

# 10^5 generated sentences, two references, three systems: opens within the watchdog.
python3 scripts/gen_corpus.py 100000 "$tmp/big"
(cd "$tmp/big" && "$green" report -s source.txt -r ref0.txt ref1.txt -c hyp.txt ref1.txt source.txt \
    --metrics green,errant --reps 200 -o report.html)
python3 scripts/report-browser.py "$tmp/big/report.html" --timeout 30 --interact

if [ "${GREEN_SCREENSHOT:-0}" = 1 ]; then
    # The docs' picture: four systems, the summary and the first sentences.
    (cd "$GREEN_SHARED/.." && "$green" report -s shared/data/conll14/source.txt -r shared/data/conll14/conll14st-test.m2 \
        -c shared/data/conll14/systems/{AMU,CAMB,CUUI,INPUT}.txt --metrics green,m2,errant -o "$tmp/docs.html")
    python3 scripts/report-browser.py "$tmp/docs.html" --screenshot docs/img/report.png --shot-height 1300 \
        --shot-hide '#outcomes, #types, #distributions, #lengths'
fi
