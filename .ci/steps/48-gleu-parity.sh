#!/usr/bin/env bash
# Differential fuzzing of `green gleu --variant jfleg|gec-ranking` against Napoles' scripts
# (scripts/fuzz-jfleg-gleu.py) for a minute, when their sources (JFLEG_SRC, GEC_RANKING_SRC,
# or the local mirrors of github.com/keisks/jfleg and github.com/cnap/gec-ranking) and a
# Python 2.7 with NumPy and SciPy are on this machine. Nothing of the originals is vendored.
# Without them this step says so and passes: the recorded cases
# (crates/green-cli/tests/fixtures/gleu-napoles) already ran in `cargo test`, and the
# real-data suite replayed the JFLEG goldens.
# ci: two at a time
set -euo pipefail
jfleg="${JFLEG_SRC:-/work/.mirror/keisks+jfleg/repo}"
ranking="${GEC_RANKING_SRC:-/work/.mirror/cnap+gec-ranking/repo/.git}"
if [ ! -e "$jfleg" ] || [ ! -e "$ranking" ]; then
    echo "48-gleu-parity: no JFLEG or gec-ranking source ($jfleg, $ranking); fuzzing skipped, recorded fixtures ran in cargo test"
    exit 0
fi
py2=""
for c in "${PYTHON2:-}" "$HOME/.pyenv/versions/2.7.18/bin/python2.7" python2.7 python2; do
    if [ -n "$c" ] && "$c" -c 'import sys, numpy, scipy; sys.exit(sys.version_info[0] != 2)' 2>/dev/null; then py2="$c"; break; fi
done
if [ -z "$py2" ]; then
    echo "48-gleu-parity: no Python 2.7 with NumPy and SciPy (set PYTHON2); fuzzing skipped, recorded fixtures ran in cargo test"
    exit 0
fi
source .ci/ci-test.sh
ci_bins
python3 scripts/fuzz-jfleg-gleu.py --jfleg "$jfleg" --gec-ranking "$ranking" --python2 "$py2" \
    --ours target/ci-test --cases 100000 --seconds "${GREEN_FUZZ_SECONDS:-60}" --seed "${GREEN_FUZZ_SEED:-5}"
