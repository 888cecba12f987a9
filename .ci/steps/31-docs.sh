#!/usr/bin/env bash
# Every ```console example of README.md and docs/*.md, run from the repository root with the
# ci-test build first on PATH, must print what the page shows (scripts/check-docs.py),
# ```console:neural blocks included (that build has the feature). The examples read
# ../shared/data (GREEN_SHARED's data must sit beside the repository as ../shared, as the
# pages write it). The ```pycon examples need the Python package and run in 50-python.sh.
set -euo pipefail
test -d ../shared/data || { echo "31-docs: ../shared/data not found; the docs' examples read it from beside the repository" >&2; exit 1; }
source .ci/ci-test.sh
ci_bins
python3 scripts/check-docs.py --only console --features neural --bin target/ci-test
