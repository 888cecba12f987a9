#!/usr/bin/env python3
"""Deterministic synthetic GEC corpus for scaling benchmarks.

Writes source.txt, ref0.txt, ref1.txt and hyp.txt with N lines each into OUTDIR:
sentences of 8-40 tokens from a 5,000-word Zipf-ish vocabulary, references and the
hypothesis made by a few random substitutions, deletions and insertions. Same N, same
files, byte for byte (seeded Mersenne Twister).

    python3 scripts/gen_corpus.py 1000000 /tmp/green-1m
"""
import os
import random
import sys


def main() -> None:
    n = int(sys.argv[1])
    out = sys.argv[2]
    os.makedirs(out, exist_ok=True)
    rng = random.Random(20241121)
    vocab = [f"w{i}" for i in range(5000)] + [".", ",", "the", "a", "of", "to"]
    weights = [1.0 / (i + 1) for i in range(len(vocab))]
    cum = []
    acc = 0.0
    for w in weights:
        acc += w
        cum.append(acc)

    def word():
        return rng.choices(vocab, cum_weights=cum)[0]

    def edit(tokens):
        t = list(tokens)
        for _ in range(rng.randint(0, 3)):
            op = rng.random()
            i = rng.randrange(len(t)) if t else 0
            if op < 0.5 and t:
                t[i] = word()
            elif op < 0.75 and t:
                del t[i]
            else:
                t.insert(i, word())
        return t

    files = [open(os.path.join(out, f), "w", encoding="utf-8") for f in ("source.txt", "ref0.txt", "ref1.txt", "hyp.txt")]
    for _ in range(n):
        src = [word() for _ in range(rng.randint(8, 40))]
        r0 = edit(src)
        r1 = edit(src)
        hyp = edit(r0) if rng.random() < 0.5 else edit(src)
        for f, toks in zip(files, (src, r0, r1, hyp)):
            f.write(" ".join(toks) + "\n")
    for f in files:
        f.close()


if __name__ == "__main__":
    main()
