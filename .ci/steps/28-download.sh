#!/usr/bin/env bash
# `green data get --download` exists only in a build with the `download` feature, so the
# README's test command never compiles it. Its tests run here, against an HTTP server on
# 127.0.0.1 that each test starts itself (no network beyond this machine). Clippy checks the
# feature in step 29; both steps, and step 50, build green-cli with the same features so it
# compiles once.
set -euo pipefail
cargo test --profile ci-test --locked -p green-cli --features neural,download --test data
