#!/usr/bin/env bash
# Fuzzing on stable Rust (cargo-fuzz needs nightly, which this machine cannot fetch): the
# proptest harnesses of the readers (line files, M2, para), the edit metrics (ERRANT M2 files,
# errant-compare, CLEME, extraction), the meta-evaluation inputs
# (judgments XML, descriptors) and the engine's invariants, with many more cases than
# `cargo test` runs. GREEN_FUZZ_CASES sets the cases per target; GREEN_FUZZ_SECONDS (unset
# here) would make every target fuzz that long.
set -euo pipefail
source .ci/ci-test.sh
cases="${GREEN_FUZZ_CASES:-50000}"
export PROPTEST_CASES="$cases"
cargo test "${ci_test[@]}" --test fuzz
PROPTEST_CASES=$(( cases / 10 )) cargo test "${ci_test[@]}" --test properties
