#!/usr/bin/env python3
"""Runs gec-metrics' own Scribendi (src/gec_metrics/metrics/scribendi.py) on a GPT-2
directory and writes its scores as JSON, the goldens green-neural's tests compare with.

    python3 scripts/scribendi-oracle.py GEC_METRICS_SRC MODEL_DIR SOURCE HYPOTHESES > golden.json

GEC_METRICS_SRC is the repository's src/ directory (not part of green); only its metrics
package is imported (base.py needs gecommon and trueskill; scribendi.py fuzzywuzzy and
python-levenshtein), on the CPU (`no_cuda`). The JSON holds numbers only (per sentence: the
score, and for a changed sentence the perplexities of source and hypothesis; the corpus
score), never text, so goldens of licensed corpora can be committed.
"""
import argparse
import importlib
import json
import math
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("model")
    ap.add_argument("source")
    ap.add_argument("hypotheses")
    ap.add_argument("--scores-only", action="store_true", help="only score_sentence (one pass, for timing): its scores")
    args = ap.parse_args()
    sys.path.insert(0, args.src)
    # The metrics package alone: its __init__ would import every metric's dependencies.
    import types

    pkg = types.ModuleType("gec_metrics")
    pkg.__path__ = [f"{args.src}/gec_metrics"]
    sys.modules["gec_metrics"] = pkg
    metrics = types.ModuleType("gec_metrics.metrics")
    metrics.__path__ = [f"{args.src}/gec_metrics/metrics"]
    sys.modules["gec_metrics.metrics"] = metrics
    Scribendi = importlib.import_module("gec_metrics.metrics.scribendi").Scribendi

    scorer = Scribendi(Scribendi.Config(model=args.model, no_cuda=True))
    srcs = [l.rstrip("\n") for l in open(args.source, encoding="utf-8")]
    hyps = [l.rstrip("\n") for l in open(args.hypotheses, encoding="utf-8")]
    scores = scorer.score_sentence(srcs, hyps)
    if args.scores_only:
        print(json.dumps({"scores": scores}))
        return
    changed = [i for i, (s, h) in enumerate(zip(srcs, hyps)) if s != h]
    ppl_s = scorer.ppl([srcs[i] for i in changed])
    ppl_h = scorer.ppl([hyps[i] for i in changed])
    rows = [{"score": s} for s in scores]
    number = lambda x: None if math.isnan(x) else x
    for k, i in enumerate(changed):
        rows[i]["ppl_s"] = number(ppl_s[k])
        rows[i]["ppl_h"] = number(ppl_h[k])
    json.dump(
        {"sentences": rows, "corpus": scorer.score_corpus(srcs, hyps)},
        sys.stdout,
        indent=0,
    )
    print()


if __name__ == "__main__":
    main()
