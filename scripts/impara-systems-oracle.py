#!/usr/bin/env python3
"""Runs gec-metrics' own IMPARA on many systems of one corpus and writes each system's corpus
score as JSON (numbers and system names only), the golden for the ranking test.

    python3 scripts/impara-systems-oracle.py GEC_METRICS_SRC QE_DIR SE_DIR SOURCE SYSTEM... > golden.json

Only gec-metrics' `score_corpus` runs (the mean of `score_sentence`), on the CPU; see
scripts/impara-oracle.py for the per-sentence goldens.
"""
import argparse
import importlib
import json
import os
import sys
import types


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("qe")
    ap.add_argument("se")
    ap.add_argument("source")
    ap.add_argument("systems", nargs="+")
    args = ap.parse_args()
    sys.path.insert(0, args.src)
    pkg = types.ModuleType("gec_metrics")
    pkg.__path__ = [f"{args.src}/gec_metrics"]
    sys.modules["gec_metrics"] = pkg
    metrics = types.ModuleType("gec_metrics.metrics")
    metrics.__path__ = [f"{args.src}/gec_metrics/metrics"]
    sys.modules["gec_metrics.metrics"] = metrics
    IMPARA = importlib.import_module("gec_metrics.metrics.impara").IMPARA
    scorer = IMPARA(IMPARA.Config(model_qe=args.qe, model_se=args.se, no_cuda=True))
    srcs = [l.rstrip("\n") for l in open(args.source, encoding="utf-8")]
    out = {}
    for path in args.systems:
        hyps = [l.rstrip("\n") for l in open(path, encoding="utf-8")]
        out[os.path.splitext(os.path.basename(path))[0]] = scorer.score_corpus(srcs, hyps)
    json.dump({"systems": out}, sys.stdout, indent=0)
    print()


if __name__ == "__main__":
    main()
