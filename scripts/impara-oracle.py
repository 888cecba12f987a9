#!/usr/bin/env python3
"""Runs gec-metrics' own IMPARA (src/gec_metrics/metrics/impara.py) on a quality estimator
and a similarity estimator and writes its scores as JSON, the goldens green-neural's tests
compare with.

    python3 scripts/impara-oracle.py GEC_METRICS_SRC QE_DIR SE_DIR SOURCE HYPOTHESES \
        [--threshold 0.9] > golden.json

GEC_METRICS_SRC is the repository's src/ directory (not part of green); only its metrics
package is imported, on the CPU (`no_cuda`). gec-metrics reads the quality estimator's
tokenizer from QE_DIR; a QE_DIR as gotutiyan/IMPARA's train_qe.py leaves it has none (that
repository's impara.py tokenizes with the encoder the QE was trained from), so then the
tokenizer is read from SE_DIR. Besides the scores (`score_sentence`), the similarity
estimator's cosines and the quality estimator's sigmoids are recorded, computed by the same
modules on the same inputs. The JSON holds numbers only, never text, so goldens of licensed
corpora can be committed.
"""
import argparse
import importlib
import json
import os
import sys
import types

import torch


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("qe")
    ap.add_argument("se")
    ap.add_argument("source")
    ap.add_argument("hypotheses")
    ap.add_argument("--threshold", type=float, default=0.9)
    ap.add_argument("--scores-only", action="store_true", help="only score_sentence (one pass, for timing): its scores")
    args = ap.parse_args()
    sys.path.insert(0, args.src)
    # The metrics package alone: its __init__ would import every metric's dependencies.
    pkg = types.ModuleType("gec_metrics")
    pkg.__path__ = [f"{args.src}/gec_metrics"]
    sys.modules["gec_metrics"] = pkg
    metrics = types.ModuleType("gec_metrics.metrics")
    metrics.__path__ = [f"{args.src}/gec_metrics/metrics"]
    sys.modules["gec_metrics.metrics"] = metrics
    impara = importlib.import_module("gec_metrics.metrics.impara")

    has_tokenizer = any(
        os.path.isfile(os.path.join(args.qe, f)) for f in ("tokenizer.json", "vocab.txt")
    )
    if not has_tokenizer:
        auto = impara.AutoTokenizer

        class Tokenizer:
            @staticmethod
            def from_pretrained(name):
                return auto.from_pretrained(args.se if name == args.qe else name)

        impara.AutoTokenizer = Tokenizer

    IMPARA = impara.IMPARA
    scorer = IMPARA(
        IMPARA.Config(model_qe=args.qe, model_se=args.se, threshold=args.threshold, no_cuda=True)
    )
    srcs = [l.rstrip("\n") for l in open(args.source, encoding="utf-8")]
    hyps = [l.rstrip("\n") for l in open(args.hypotheses, encoding="utf-8")]
    scores = scorer.score_sentence(srcs, hyps)
    if args.scores_only:
        print(json.dumps({"scores": scores}))
        return
    # The two estimators' outputs, one sentence at a time, as score_sentence feeds them.
    enc = dict(max_length=scorer.config.max_length, padding="max_length", truncation=True, return_tensors="pt")
    se, qe = [], []
    with torch.no_grad():
        for s, h in zip(srcs, hyps):
            q = scorer.tokenizer_qe([h], **enc)
            a = scorer.tokenizer_se([s], **enc)
            b = scorer.tokenizer_se([h], **enc)
            qe.append(torch.sigmoid(scorer.model_qe(q["input_ids"], q["attention_mask"]).logits.view(-1)).item())
            se.append(scorer.model_se(a["input_ids"], a["attention_mask"], b["input_ids"], b["attention_mask"]).item())
    json.dump(
        {
            "versions": {"torch": torch.__version__, "transformers": sys.modules["transformers"].__version__},
            "threshold": args.threshold,
            "sentences": [{"se": x, "qe": y, "score": z} for x, y, z in zip(se, qe, scores)],
            "corpus": scorer.score_corpus(srcs, hyps),
        },
        sys.stdout,
        indent=0,
    )
    print()


if __name__ == "__main__":
    main()
