#!/usr/bin/env python3
"""One-line corpora of a given size, for the cost of counting one very long sentence.

Writes src.txt, ref.txt and hyp.txt into OUTDIR, each a single line of about SIZE_MB
megabytes (10^6 bytes): at word level, words of a 5,000-word Zipf-ish vocabulary; at char
level (`--char`), CJK characters of a 5,000-character Zipf-ish repertoire with no spaces
(`--vocab` and `--uniform` change the repertoire and make every token equally likely).
The reference and the hypothesis are the source with a random edit (substitution,
deletion or insertion) every 20 tokens or so, each its own. Same arguments, same files,
byte for byte (seeded Mersenne Twister). `--lines K` writes the same tokens with a line
break after every K source tokens (and after the tokens edited from them in the reference
and the hypothesis): the same corpus as many short sentences, to compare the cost per byte.

    python3 scripts/long-line.py 15 /tmp/long-15
    python3 scripts/long-line.py --char 15 /tmp/long-15-char
    target/release/green -s /tmp/long-15/src.txt -r /tmp/long-15/ref.txt -c /tmp/long-15/hyp.txt
    python3 scripts/long-line.py --lines 30 15 /tmp/short-15
"""
import argparse
import itertools
import os
import random


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("size_mb", type=float, help="bytes per line, in megabytes (10^6)")
    ap.add_argument("outdir")
    ap.add_argument("--char", action="store_true", help="CJK characters, no spaces")
    ap.add_argument("--vocab", type=int, default=5000, help="distinct tokens (5000)")
    ap.add_argument("--uniform", action="store_true", help="every token equally likely")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--lines", type=int, metavar="K", help="a line break every K source tokens")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    if args.char:
        vocab = [chr(0x4E00 + i) for i in range(args.vocab)]
        sep = ""
    else:
        vocab = [f"w{i}" for i in range(args.vocab)]
        sep = " "
    weight = (lambda i: 1.0) if args.uniform else (lambda i: 1.0 / (i + 1))
    cum = list(itertools.accumulate(weight(i) for i in range(len(vocab))))
    size = int(args.size_mb * 1_000_000)

    # Tokens in batches (one call to choices per batch) until the line is long enough.
    source, length = [], 0
    while length < size:
        batch = rng.choices(vocab, cum_weights=cum, k=10_000)
        for tok in batch:
            source.append(tok)
            length += len(tok.encode()) + len(sep)
            if length >= size:
                break

    def edit(tokens):
        """Per source token, the tokens it becomes."""
        out = []
        for tok in tokens:
            if rng.random() >= 0.05:
                out.append([tok])
                continue
            op = rng.random()
            if op < 0.5:
                out.append([rng.choices(vocab, cum_weights=cum)[0]])
            elif op < 0.75:
                out.append([])
            else:
                out.append([tok, rng.choices(vocab, cum_weights=cum)[0]])
        return out

    def text(parts):
        step = args.lines or len(parts)
        lines = (parts[i : i + step] for i in range(0, len(parts), step))
        return "".join(sep.join(t for p in line for t in p) + "\n" for line in lines)

    os.makedirs(args.outdir, exist_ok=True)
    texts = (("src", [[t] for t in source]), ("ref", edit(source)), ("hyp", edit(source)))
    for name, parts in texts:
        with open(os.path.join(args.outdir, f"{name}.txt"), "w", encoding="utf-8") as f:
            f.write(text(parts))


if __name__ == "__main__":
    main()
