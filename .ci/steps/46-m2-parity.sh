#!/usr/bin/env bash
# Differential fuzzing of `green maxmatch` against the original NUS m2scorer
# (scripts/fuzz-m2scorer.py) for a minute, when its source (M2SCORER_SRC, or the local
# mirror of github.com/nusnlp/m2scorer) and a Python 2.7 are on this machine. Nothing of the
# original is vendored. Without them this step says so and passes: the cases it recorded
# (crates/green-m2/tests/fixtures) already ran in `cargo test`, and the real-data suite
# checked all 13 CoNLL-2014 systems sentence by sentence.
# ci: two at a time
set -euo pipefail
src="${M2SCORER_SRC:-/work/.mirror/nusnlp+m2scorer/repo}"
if [ ! -e "$src" ]; then
    echo "46-m2-parity: no m2scorer source at $src (set M2SCORER_SRC); fuzzing skipped, recorded fixtures ran in cargo test"
    exit 0
fi
py2=""
for c in "${PYTHON2:-}" "$HOME/.pyenv/versions/2.7.18/bin/python2.7" python2.7 python2; do
    if [ -n "$c" ] && "$c" -c 'import sys; sys.exit(sys.version_info[0] != 2)' 2>/dev/null; then py2="$c"; break; fi
done
if [ -z "$py2" ]; then
    echo "46-m2-parity: no Python 2.7 (set PYTHON2); fuzzing skipped, recorded fixtures ran in cargo test"
    exit 0
fi
source .ci/ci-test.sh
ci_bins
python3 scripts/fuzz-m2scorer.py --m2scorer "$src" --python2 "$py2" --ours target/ci-test \
    --cases 100000 --seconds "${GREEN_FUZZ_SECONDS:-60}" --seed "${GREEN_FUZZ_SEED:-11}"
