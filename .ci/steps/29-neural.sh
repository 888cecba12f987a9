#!/usr/bin/env bash
# `green some` and `green scribendi` exist only in a build with green-cli's `neural` feature
# (candle and tokenizers add minutes to a clean build, so the default build leaves them out).
# green-neural's own tests run with the workspace in 20-test (and its CoNLL-14 goldens in
# 30-real-data); here: clippy and the CLI's tests with the feature, and clippy of the Python
# bindings' `neural` feature (step 50 builds and tests them). The docs' console:neural
# examples run in 31-docs with the rest. No torch: the goldens are committed.
set -euo pipefail
cargo clippy --locked -p green-cli -p green-py --features green-cli/neural,green-cli/download,green-py/neural --all-targets -- -D warnings
source .ci/ci-test.sh
cargo test "${ci_test[@]}" --test neural --test neural_shards
