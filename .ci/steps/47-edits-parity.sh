#!/usr/bin/env bash
# Differential testing of `green errant-compare` against ERRANT 3.0.2's errant_compare
# (scripts/fuzz-errant-compare.py): all 13 CoNLL-2014 systems of ../shared/data/cleme under 10
# flag sets, then 40 seconds of random cases, when the original's source (ERRANT_SRC, or the
# local mirror of github.com/chrisjbryant/errant) is on this machine. Nothing of the original
# is vendored. Without it this step says so and passes: the recorded cases
# (crates/green-edits/tests/fixtures/compare) ran in `cargo test`, and the real-data suite
# checked every ERRANT and CLEME number of the CLEME paper's Table 10.
# ci: two at a time
set -euo pipefail
src="${ERRANT_SRC:-/work/.mirror/chrisjbryant+errant/repo}"
if [ ! -e "$src" ]; then
    echo "47-edits-parity: no ERRANT source at $src (set ERRANT_SRC); differential testing skipped, recorded fixtures ran in cargo test"
    exit 0
fi
source .ci/ci-test.sh
ci_bins
# ChERRANT's scorer too (--cherrant), when its source (CHERRANT_SRC, or the local mirror of
# github.com/HillZhang1999/MuCGEC) is here.
cherrant="${CHERRANT_SRC:-/work/.mirror/HillZhang1999+MuCGEC/repo}"
extra=()
if [ -e "$cherrant" ]; then extra=(--cherrant "$cherrant"); else echo "47-edits-parity: no ChERRANT source at $cherrant; its fuzzing skipped"; fi
python3 scripts/fuzz-errant-compare.py --errant "$src" --ours target/ci-test \
    --data "$GREEN_SHARED/data/cleme" --seconds "${GREEN_FUZZ_SECONDS:-40}" --seed "${GREEN_FUZZ_SEED:-7}" "${extra[@]}"
