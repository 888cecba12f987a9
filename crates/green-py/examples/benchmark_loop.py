"""Embedding green in a benchmark loop: one Scorer, many systems, every level.

    python benchmark_loop.py ../shared/data/conll14
"""

import sys
from pathlib import Path

import green_gec as green


def lines(path):
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f]


data = Path(sys.argv[1])
sources = lines(data / "source.txt")
references = [lines(data / "ref0.txt"), lines(data / "ref1.txt")]  # one list per reference set

scorer = green.Scorer("word", n=4, beta=2.0)  # build once (dictionaries load here), reuse
for path in sorted((data / "systems").glob("*.txt")):
    hypotheses = lines(path)
    corpus = scorer.corpus_score(sources=sources, references=references, hypotheses=hypotheses)
    mean = scorer.mean_score(sources=sources, references=references, hypotheses=hypotheses)
    print(f"{path.stem:6} corpus {corpus.format(score_only=True):>6}  mean {mean.format(score_only=True):>6}")
print(scorer.signature(refs=len(references)))

# Everything at once: several betas and systems, per-order counts, chosen references.
result = scorer.evaluate(
    sources=sources, references=references, systems=[lines(data / "systems" / "AMU.txt")], beta=[0.5, 1.0, 2.0]
)
amu = result["systems"][0]
print("AMU corpus at beta 0.5, 1, 2:", [round(x * 100, 2) for x in amu["corpus"]])
print("AMU order-4 counts at beta 2:", {k: amu["orders"][2][3][k] for k in ("tp", "fp", "fn")})
print(result["signature"])
