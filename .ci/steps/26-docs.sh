#!/usr/bin/env bash
# Every ```console example of README.md and docs/*.md, run from the repository root with the
# release build first on PATH, must print what the page shows (scripts/check-docs.py). The
# examples read ../shared/data (GREEN_SHARED's data must sit beside the repository as
# ../shared, as the pages write it). The ```pycon examples need the Python package and run in
# 50-python.sh.
set -euo pipefail
test -d ../shared/data || { echo "26-docs: ../shared/data not found; the docs' examples read it from beside the repository" >&2; exit 1; }
cargo build --release --locked -p green-cli
python3 scripts/check-docs.py --only console
