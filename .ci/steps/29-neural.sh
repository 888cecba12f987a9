#!/usr/bin/env bash
# `green some` and `green scribendi` exist only in a build with green-cli's `neural` feature
# (candle and tokenizers add minutes to a clean build, so the default build leaves them out).
# green-neural's own tests run with the workspace in 20-test (and its CoNLL-14 goldens in
# 30-real-data); here: clippy and the CLI's tests with the feature, and the console:neural
# examples of docs/neural.md (and docs/meta.md's `green meta --neural`) against that build;
# clippy of the Python bindings' `neural` feature (step 50 builds and tests them). No torch:
# the goldens are committed.
set -euo pipefail
cargo clippy --locked -p green-cli -p green-py --features green-cli/neural,green-cli/download,green-py/neural --all-targets -- -D warnings
source .ci/ci-test.sh
# The test build also builds the binaries (target/ci-test/green) that check-docs runs below.
cargo test "${ci_test[@]}" --test neural --test neural_shards
python3 scripts/check-docs.py --only console --features neural --bin target/ci-test docs/neural.md
python3 scripts/check-docs.py --only console --features neural --bin target/ci-test -k some= docs/meta.md
python3 scripts/check-docs.py --only console --features neural --bin target/ci-test -k ptm2= docs/meta.md
