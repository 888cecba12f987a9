#!/usr/bin/env python3
"""SOME side by side: green against kokeman/SOME's some.py on PyTorch (CPU), on CoNLL-2014's
AMU output, with random BERT-base-sized regressors (12 layers, 768 wide, as SOME's) built
here. Prints wall time, peak memory and the largest difference of the sentence scores.

    python3 scripts/bench-some.py --python /tmp/neuralv/bin/python --some-py some.py \\
        --green target/release/green [--shared ../shared] [--work /tmp/some-bench] [--lines N]

The models need torch and transformers in --python; the vocabulary is BERT's special tokens,
every printable ASCII character and its '##' piece, and the corpus's most frequent words
(built in --work, never committed). Both sides use every core.
"""
import argparse
import collections
import json
import os
import re
import string
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def timed(cmd, out_path):
    """Runs cmd under /usr/bin/time -v: (seconds, peak RSS in MiB)."""
    start = time.monotonic()
    with open(out_path, "w") as out:
        proc = subprocess.run(["/usr/bin/time", "-v", *cmd], stdout=out, stderr=subprocess.PIPE, text=True)
    took = time.monotonic() - start
    if proc.returncode != 0:
        sys.exit(f"{cmd[0]} failed:\n{proc.stderr[-3000:]}")
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr).group(1))
    return took, rss / 1024


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", required=True)
    ap.add_argument("--some-py", required=True)
    ap.add_argument("--green", required=True)
    ap.add_argument("--shared", default=os.path.join(HERE, "..", "..", "shared"))
    ap.add_argument("--work", default="/tmp/some-bench")
    ap.add_argument("--lines", type=int, help="only the first N sentences (some.py pads every input to 128 tokens: the whole corpus takes half an hour on 2 cores)")
    args = ap.parse_args()
    src = os.path.join(args.shared, "data/conll14/source.txt")
    hyp = os.path.join(args.shared, "data/conll14/systems/AMU.txt")
    if args.lines:
        os.makedirs(args.work, exist_ok=True)
        for name, path in (("source", src), ("hyp", hyp)):
            head = open(path, encoding="utf-8").readlines()[: args.lines]
            out = os.path.join(args.work, f"{name}-{args.lines}.txt")
            open(out, "w", encoding="utf-8").write("".join(head))
            src, hyp = (out, hyp) if name == "source" else (src, out)
    models = os.path.join(args.work, "models")
    if not os.path.isdir(os.path.join(models, "meaning")):
        os.makedirs(args.work, exist_ok=True)
        words = collections.Counter()
        for path in (src, hyp):
            for line in open(path, encoding="utf-8"):
                words.update(re.findall(r"\w+|[^\w\s]", line))
        base = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
        base += [c for c in string.printable if not c.isspace()]
        base += ["##" + c for c in string.ascii_letters + string.digits]
        seen = set(base)
        vocab = base + [w for w, _ in words.most_common() if w not in seen][: 28996 - len(base)]
        vocab_path = os.path.join(args.work, "vocab.txt")
        with open(vocab_path, "w", encoding="utf-8") as f:
            f.write("".join(t + "\n" for t in vocab))
        subprocess.run(
            [args.python, os.path.join(HERE, "some-tiny-models.py"), models, "--vocab", vocab_path,
             "--hidden", "768", "--layers", "12", "--heads", "12", "--inter", "3072", "--init", "0.02"],
            check=True,
        )
    theirs_out = os.path.join(args.work, "some-py.json")
    ours_out = os.path.join(args.work, "green.json")
    t_theirs, m_theirs = timed(
        [args.python, os.path.join(HERE, "some-oracle.py"), args.some_py, models, src, hyp, "--system-only"],
        theirs_out,
    )
    t_ours, m_ours = timed(
        [args.green, "some", "--models", models, "-s", src, "-c", hyp, "--format", "json"], ours_out
    )
    theirs = json.load(open(theirs_out))["sentences"]
    ours = [s["some"] for s in json.load(open(ours_out))["systems"][0]["sentences"]]
    diff = max(abs(a - b) for a, b in zip(theirs, ours))
    print(f"sentences: {len(ours)}; cores: {os.cpu_count()}")
    print(f"some.py (PyTorch CPU): {t_theirs:7.1f} s  {m_theirs:7.0f} MiB peak (includes loading the models)")
    print(f"green some:            {t_ours:7.1f} s  {m_ours:7.0f} MiB peak (includes loading the models)")
    print(f"largest difference of a sentence score: {diff:.2e}")


if __name__ == "__main__":
    main()
