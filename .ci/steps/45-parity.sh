#!/usr/bin/env bash
# Differential fuzzing against the reference green/sgreen/mgreen (scripts/fuzz-reference.py)
# for a minute and a half, when the reference's source is on this machine: GREEN_REFERENCE_SRC, or
# the local mirror of github.com/shotakoyama/green. The reference is installed into a
# throw-away virtual environment (numpy and prettytable come from PyPI); nothing is vendored.
# Without the source this step says so and passes: the fixtures the fuzzer recorded already
# ran in `cargo test` (crates/green-cli/tests/parity.rs).
# ci: two at a time
set -euo pipefail
src="${GREEN_REFERENCE_SRC:-/work/.mirror/shotakoyama+green/repo}"
if [ ! -e "$src" ]; then
    echo "45-parity: no reference source at $src (set GREEN_REFERENCE_SRC to a checkout of shotakoyama/green); fuzzing skipped, recorded fixtures ran in cargo test"
    exit 0
fi
source .ci/ci-test.sh
ci_bins
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
python3 scripts/fuzz-reference.py --install "$src" --venv "$dir/ref" --ours target/ci-test \
    --cases 100000 --seconds "${GREEN_FUZZ_SECONDS:-90}" --seed "${GREEN_FUZZ_SEED:-17}"
