#!/usr/bin/env python3
"""Goldens for green's PT-M2 `errant`/`senterrant` bases from the original scorer
(github.com/pygongnlp/PT-M2: errant_score.py, its vendored bert_score), on a model directory
the caller gives.

As scripts/ptm2-oracle.py: bert_score gets the layer count and baseline file of the local
model and nothing else changes. PT-M2 reads the references from ref<N> files and asserts
they equal the gold edits applied; they are written here from the gold M2 with PT-M2's own
`get_ref`. The golden holds numbers only: per sentence the senterrant P/R/F (one
`batch_multi_pre_rec_f1_sent_errant` call each, as `compute_senterrant`) and each
annotator's edit weights (start, end, weight, ordered by edit), their mean, and the corpus
(errant) P/R/F.

    python scripts/ptm2-errant-oracle.py --ptm2 /tmp/ptm2repo --model DIR --layers 1 \
        --baseline BASE.tsv --m2 GOLD.m2 --hyp SYS.txt --hyp-m2 SYS.m2 --out golden.json
"""
import argparse
import functools
import json
import os
import sys

ap = argparse.ArgumentParser()
for a in ("--ptm2", "--model", "--baseline", "--m2", "--hyp", "--hyp-m2", "--out"):
    ap.add_argument(a, required=True)
ap.add_argument("--layers", type=int, required=True)
args = ap.parse_args()

m2, hyp, hyp_m2, out, model, baseline = (
    os.path.abspath(p) for p in (args.m2, args.hyp, args.hyp_m2, args.out, args.model, args.baseline)
)
os.chdir(args.ptm2)
sys.path.insert(0, args.ptm2)
sys.path.insert(0, os.path.join(args.ptm2, "m2score"))

import numpy as np  # noqa: E402
import torch  # noqa: E402
import metrics  # noqa: E402
import errant_score  # noqa: E402

metrics.BERTScorer = functools.partial(metrics.BERTScorer, num_layers=args.layers, baseline_path=baseline)

recorded = []
original = errant_score.compute_weight_edits


def recording(*a, **k):
    w = original(*a, **k)
    recorded.append(w)
    return w


errant_score.compute_weight_edits = recording

sources, golds, sys_edits = errant_score.errant_load_annotation(hyp_m2, m2)
# references[i][annotator], as utils.load_dir returns them
references = [{a: errant_score.get_ref(sorted(g, key=lambda x: (x[0], x[1])), src) for a, g in gs.items()} for src, gs in zip(sources, golds)]
hyps = [line.strip() for line in open(hyp, encoding="utf8")]

ns = argparse.Namespace(beta=0.5, device=torch.device("cpu"), model_type=model, scorer="bertscore")
metric = metrics.PTM2(ns)

sentences = []
for h, src, refs, sy, g in zip(hyps, sources, references, sys_edits, golds):
    recorded.clear()
    p, r, f = errant_score.batch_multi_pre_rec_f1_sent_errant(
        candidates=[h], sources=[src], system_edits=[sy], gold_edits=[g], references=[refs],
        scorer=metric.scorer, scorer_type="bertscore", beta=0.5,
    )
    weights = [[[k[0], k[1], v] for k, v in sorted(w.items())] for w in recorded]
    sentences.append({"p": p, "r": r, "f": f, "weights": weights})
# compute_senterrant's mean of the same per-sentence calls.
sent_score = sum(np.array([s["f"] for s in sentences])) / len(hyps)
p, r, f = errant_score.batch_multi_pre_rec_f1_errant(
    candidates=hyps, sources=sources, system_edits=sys_edits, gold_edits=golds, references=references,
    scorer=metric.scorer, scorer_type="bertscore", beta=0.5,
)
golden = {"layers": args.layers, "senterrant": float(sent_score), "errant": {"p": p, "r": r, "f": f}, "sentences": sentences}
with open(out, "w") as fh:
    json.dump(golden, fh)
    fh.write("\n")
print(f"senterrant={sent_score:.6f} errant P={p:.6f} R={r:.6f} F0.5={f:.6f}")
