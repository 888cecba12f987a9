#!/usr/bin/env bash
# Formatting and lints, warnings as errors.
set -euo pipefail
cargo fmt --all --check
cargo clippy --workspace --all-targets --locked -- -D warnings
