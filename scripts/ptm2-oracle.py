#!/usr/bin/env python3
"""Goldens for green's PT-M2 from the original scorer (github.com/pygongnlp/PT-M2, its
vendored bert_score), run on a model directory the caller gives.

PT-M2 builds `BERTScorer(model_type=..., lang="en", rescale_with_baseline=True)`; a local
model is not in bert_score's layer table nor has a baseline file, so this script passes the
layer count and a baseline file to that same constructor and changes nothing else. The
references PT-M2 reads from ref<N> files are written here from the M2 file with PT-M2's own
`get_ref` (its scorer asserts they are equal). The golden holds numbers only: per sentence
PT-M2's P/R/F (its sentm2 calls, and their mean) and the chosen weights of each annotator's edits (start, end,
weight, ordered by edit), and the corpus-level (m2) P/R/F.

    python scripts/ptm2-oracle.py --ptm2 /tmp/ptm2repo --model DIR --layers 1 \
        --baseline BASE.tsv --m2 GOLD.m2 --hyp SYS.txt --out golden.json
"""
import argparse
import functools
import json
import os
import sys
import tempfile

ap = argparse.ArgumentParser()
ap.add_argument("--ptm2", required=True)
ap.add_argument("--model", required=True)
ap.add_argument("--layers", type=int, required=True)
ap.add_argument("--baseline", required=True)
ap.add_argument("--m2", required=True)
ap.add_argument("--hyp", required=True)
ap.add_argument("--out", required=True)
args = ap.parse_args()

m2, hyp, out, model, baseline = (os.path.abspath(p) for p in (args.m2, args.hyp, args.out, args.model, args.baseline))
os.chdir(args.ptm2)
sys.path.insert(0, args.ptm2)
sys.path.insert(0, os.path.join(args.ptm2, "m2score"))

import numpy as np  # noqa: E402
import torch  # noqa: E402
import metrics  # noqa: E402
import levenshtein  # noqa: E402
from m2scorer import load_annotation  # noqa: E402
from util import get_ref, compute_weight_edits  # noqa: E402
from utils import load_file, load_dir  # noqa: E402

metrics.BERTScorer = functools.partial(metrics.BERTScorer, num_layers=args.layers, baseline_path=baseline)

recorded = []


def recording(editSeq, gold, source, cand, ref, w_t, scorer=None, sent_level=False):
    w = compute_weight_edits(editSeq, gold, source, cand, ref, w_t, scorer, sent_level)
    recorded.append(w)
    return w


levenshtein.compute_weight_edits = recording

sources, golds = load_annotation(m2)
tmp = tempfile.mkdtemp()
refdir = os.path.join(tmp, "reference")
os.mkdir(refdir)
annotators = sorted({a for g in golds for a in g})
for a in annotators:
    with open(os.path.join(refdir, f"ref{a}"), "w", encoding="utf8") as f:
        for src, g in zip(sources, golds):
            edits = sorted(((e[0], e[1], e[2], e[3][0]) for e in g.get(a, [])), key=lambda x: (x[0], x[1]))
            f.write(get_ref(edits, src) + "\n")
with open(refdir + ".m2", "w", encoding="utf8") as f:
    f.write(open(m2, encoding="utf8").read())
references = load_dir(refdir)
hyps = [line.strip() for line in open(hyp, encoding="utf8")]

ns = argparse.Namespace(beta=0.5, device=torch.device("cpu"), model_type=model, scorer="bertscore")
metric = metrics.PTM2(ns)

sentences = []
for i, (h, src, refs, g) in enumerate(zip(hyps, sources, references, golds)):
    recorded.clear()
    p, r, f = levenshtein.batch_multi_pre_rec_f1_sent(
        candidates=[h], sources=[src], gold_edits=[g], references=[refs], scorer=metric.scorer, scorer_type="bertscore", beta=0.5
    )
    weights = [[[k[0], k[1], v] for k, v in sorted(w.items())] for w in recorded]
    sentences.append({"p": p, "r": r, "f": f, "weights": weights})
# compute_sentm2's own mean of the same per-sentence calls (not run twice: slow).
sent_score = sum(np.array([s["f"] for s in sentences])) / len(hyps)
p, r, f = levenshtein.batch_multi_pre_rec_f1(
    candidates=hyps, sources=sources, gold_edits=golds, references=references, scorer=metric.scorer, scorer_type="bertscore", beta=0.5
)
golden = {
    "layers": args.layers,
    "sentm2": float(sent_score),
    "m2": {"p": p, "r": r, "f": f},
    "sentences": sentences,
}
with open(out, "w") as fh:
    json.dump(golden, fh)
    fh.write("\n")
print(f"sentm2={sent_score:.6f} m2 P={p:.6f} R={r:.6f} F0.5={f:.6f}")
