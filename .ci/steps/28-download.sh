#!/usr/bin/env bash
# `green data get --download` exists only in a build with the `download` feature, so the
# README's test command never compiles it. Its tests run here, against an HTTP server on
# 127.0.0.1 that each test starts itself (no network beyond this machine), with clippy.
set -euo pipefail
cargo clippy --locked -p green-cli --features download --all-targets -- -D warnings
cargo test --profile ci-test --locked -p green-cli --features download --test data
