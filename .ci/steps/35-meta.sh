#!/usr/bin/env bash
# `green meta` end to end on the real data, the way docs/meta.md runs it: one command prints
# the Table-2-shaped table for GJG15, SEEDA and RevisitCGEC and writes the plots. The numbers
# themselves are checked by green-meta's real-data tests (30-real-data.sh).
set -euo pipefail
source .ci/ci-test.sh
ci_bins
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
./target/ci-test/green meta --data "$GREEN_SHARED/data" --gleu --level corpus mean -o "$dir" > "$dir/stdout.md"
for d in GJG15 SEEDA RevisitCGEC-minimal RevisitCGEC-fluency; do
    grep -q "^### $d\$" "$dir/stdout.md" || { echo "35-meta: no table for $d" >&2; exit 1; }
done
grep -q "AMU 0.628" "$dir/human.md" || { echo "35-meta: GJG15 Expected Wins of AMU is not 0.628" >&2; exit 1; }
for f in GJG15-GJG15 SEEDA-SEEDA-S SEEDA-SEEDA-E RevisitCGEC-minimal-both; do
    grep -q "<svg" "$dir/plots/$f.svg" || { echo "35-meta: plot $f.svg missing" >&2; exit 1; }
done
test "$(wc -l < "$dir/table.tsv")" -eq 9 || { echo "35-meta: expected 8 rows in table.tsv" >&2; exit 1; }
# The README's one command for the GREEN paper's Table 2 with intervals and Williams' tests:
# every one of the 16 rows (8 configurations, 2 datasets) has intervals, corpus GLEU included.
./target/ci-test/green meta --data "$GREEN_SHARED/data" --preset green-paper --bootstrap 1000 --williams > "$dir/preset.md"
rows="$(grep -c '^| GLEU-reformulated .*\[.*\]\|^| GREEN .*\[.*\]' "$dir/preset.md" || true)"
test "$rows" -eq 16 || { echo "35-meta: the green-paper preset printed $rows rows with intervals, not 16" >&2; exit 1; }
grep -q "^### Williams' test" "$dir/preset.md" || { echo "35-meta: the green-paper preset printed no Williams' test" >&2; exit 1; }
echo "green meta: tables, human scores and plots written; the green-paper preset has intervals on all 16 rows"
