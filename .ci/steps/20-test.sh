#!/usr/bin/env bash
# The README's test command: self-contained, no ../shared.
set -euo pipefail
cargo test --workspace
