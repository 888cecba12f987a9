#!/usr/bin/env bash
# `green data get --download` exists only in a build with the `download` feature, so the
# README's test command never compiles it. Its tests run here, against an HTTP server on
# 127.0.0.1 that each test starts itself (no network beyond this machine). Clippy checks the
# feature in step 29; the ci-test builds of steps 27 to 55 share one feature set
# (.ci/ci-test.sh), so green-cli compiles once for all of them.
set -euo pipefail
source .ci/ci-test.sh
cargo test "${ci_test[@]}" --test data
