#!/usr/bin/env bash
# The real-data suite: tests marked #[ignore] that read $GREEN_SHARED (../shared) and fail,
# not skip, when it is missing. Optimised (profile ci-test) so the big files are quick.
# Tests named annotated_* also need a tagger's annotations of CoNLL-2014 text
# ($GREEN_ANNOTATIONS, scripts/seeda-table5-annotations.py), made with spaCy in 50-python.sh,
# which runs them: skipped here.
set -euo pipefail
test -d "$GREEN_SHARED/data" || { echo "real-data suite: $GREEN_SHARED/data not found; put ../shared beside the repository or set GREEN_SHARED" >&2; exit 1; }
source .ci/ci-test.sh
ci_bins
# Only the test targets that have ignored tests (the others would be built to run nothing):
# every member's tests/*.rs (crates/, langs/, the root) with an #[ignore], by name; the unit
# tests too if a source file outside tests/ has one.
ignored() { grep -rl --include='*.rs' --exclude-dir=target "$@" '#\[ignore' . || true; }
targets=()
for name in $(ignored | grep -E '/tests/[^/]+\.rs$' | xargs -r -n1 basename | sed 's/\.rs$//' | sort -u); do
    targets+=(--test "$name")
done
if [ -n "$(ignored --exclude-dir=tests)" ]; then
    targets+=(--lib)
fi
GREEN_BIN="$PWD/target/ci-test/green" cargo test "${ci_test[@]}" "${targets[@]}" -- --ignored --skip annotated_
