#!/usr/bin/env python3
"""Differential fuzzer: `green gleu --variant gec-metrics` against gec-metrics' `GLEU` class.

gec-metrics (github.com/gotutiyan/gec-metrics) is not copied here: give the directory holding
its `metrics/base.py`, `green.py` and `gleu.py` with --metrics (only NumPy is needed; its other
imports are stubbed). Run it with CPython 3.12 or later: green sums floats as CPython's `sum`
does since 3.12 (3.11's differs in the last bits):

    python3.12 scripts/fuzz-gec-metrics-gleu.py --green target/release/green \
        --metrics /path/to/gec-metrics/src/gec_metrics/metrics --cases 300

Each case is a random corpus of 1 to 6 sentences over a tiny vocabulary (runs of spaces inside
lines, empty lines, lines of spaces, tabs), 1 to 3 references edited from the source (so that
numerators go negative), 1 to 3 hypotheses, random `-n` (1 to 5) and `--iter` (1 to 600).
Corpus and sentence scores must be the same floats. `--record DIR` writes the first cases
as a fixture that crates/green-cli/tests/gleu_gec_metrics.rs replays (random text only).
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import types


def load_gleu(metrics_dir):
    for name in ["gecommon", "trueskill", "tqdm"]:
        m = types.ModuleType(name)
        m.apply_edits = m.tqdm = None
        sys.modules[name] = m
    pkg = types.ModuleType("gm")
    pkg.__path__ = [metrics_dir]
    sys.modules["gm"] = pkg
    from gm.gleu import GLEU
    return GLEU


def read_lines(path):
    # gecmetrics-eval's reading of a file.
    sents = open(path).read().rstrip().split('\n')
    return [s.strip() for s in sents]


WORDS = ["a", "b", "c", "the", "cat", "sat", ".", ","]


def sentence(rng):
    return [rng.choice(WORDS) for _ in range(rng.randint(0, 7))]


def edit(rng, words):
    w = list(words)
    for _ in range(rng.randint(0, 4)):
        op = rng.random()
        if op < 0.3 and w:
            del w[rng.randrange(len(w))]
        elif op < 0.6:
            w.insert(rng.randint(0, len(w)), rng.choice(WORDS))
        elif w:
            w[rng.randrange(len(w))] = rng.choice(WORDS)
    return w


def render(rng, words):
    seps = [" "] * 6 + ["  ", "\t"]
    text = ""
    for i, t in enumerate(words):
        text += (rng.choice(seps) if i else "") + t
    if rng.random() < 0.1:
        text = " " + text + " "
    return text


def make_case(rng):
    sents = rng.randint(1, 6)
    nrefs, nhyps = rng.randint(1, 3), rng.randint(1, 3)
    src = [sentence(rng) for _ in range(sents)]
    refs = [[edit(rng, s) for s in src] for _ in range(nrefs)]
    hyps = [[edit(rng, rng.choice([s, refs[0][i]])) for i, s in enumerate(src)]
            for _ in range(nhyps)]
    files = {"src.txt": [render(rng, s) for s in src]}
    for k, r in enumerate(refs):
        files[f"ref{k}.txt"] = [render(rng, s) for s in r]
    for k, h in enumerate(hyps):
        files[f"hyp{k}.txt"] = [render(rng, s) for s in h]
    # Every file keeps a line per sentence after gec-metrics' rstrip: end on a word.
    for lines in files.values():
        if not lines[-1].strip():
            lines[-1] = "a"
    return files, rng.randint(1, 5), rng.choice([1, 2, 7, 50, 500, rng.randint(1, 600)])


def oracle(GLEU, d, nrefs, nhyps, n, iters):
    src = read_lines(os.path.join(d, "src.txt"))
    refs = [read_lines(os.path.join(d, f"ref{k}.txt")) for k in range(nrefs)]
    g = GLEU(GLEU.Config(n=n, iter=iters))
    out = {"corpus": [], "sentence": []}
    for k in range(nhyps):
        hyps = read_lines(os.path.join(d, f"hyp{k}.txt"))
        out["corpus"].append(g.score_corpus(src, hyps, refs))
        out["sentence"].append(g.score_sentence(src, hyps, refs))
    return out


def green(exe, d, nrefs, nhyps, n, iters):
    args = [exe, "gleu", "--variant", "gec-metrics", "-s", "src.txt",
            "-r", *[f"ref{k}.txt" for k in range(nrefs)],
            "-o", *[f"hyp{k}.txt" for k in range(nhyps)], "-n", str(n), "--iter", str(iters)]
    corpus = subprocess.run(args, cwd=d, capture_output=True, text=True, check=True).stdout
    out = {"corpus": [float(l.split(" | ")[0][len("Score="):]) for l in corpus.splitlines()],
           "sentence": []}
    for k in range(nhyps):
        one = args[:args.index("-o")] + ["-o", f"hyp{k}.txt", "-n", str(n), "--level", "sentence"]
        s = subprocess.run(one, cwd=d, capture_output=True, text=True, check=True).stdout
        out["sentence"].append([float(x) for x in s.split()])
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--green", required=True)
    ap.add_argument("--metrics", required=True)
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--record", help="write the first --keep cases as a fixture here")
    ap.add_argument("--keep", type=int, default=8)
    a = ap.parse_args()
    GLEU = load_gleu(a.metrics)
    exe = os.path.abspath(a.green)
    rng = random.Random(a.seed)
    bad = 0
    for case in range(a.cases):
        files, n, iters = make_case(rng)
        nrefs = sum(f.startswith("ref") for f in files)
        nhyps = sum(f.startswith("hyp") for f in files)
        with tempfile.TemporaryDirectory() as d:
            for name, lines in files.items():
                with open(os.path.join(d, name), "w") as f:
                    f.write("\n".join(lines) + "\n")
            want = oracle(GLEU, d, nrefs, nhyps, n, iters)
            got = green(exe, d, nrefs, nhyps, n, iters)
            if want != got:
                bad += 1
                print(f"case {case}: -n {n} --iter {iters}\n want {want}\n got  {got}")
            if a.record and case < a.keep:
                out = os.path.join(a.record, f"case{case}")
                os.makedirs(out, exist_ok=True)
                for name, lines in files.items():
                    with open(os.path.join(out, name), "w") as f:
                        f.write("\n".join(lines) + "\n")
                with open(os.path.join(out, "expected.json"), "w") as f:
                    json.dump({"n": n, "iter": iters, "refs": nrefs, "hyps": nhyps, **want},
                              f, indent=1)
                    f.write("\n")
    print(f"{a.cases} cases, {bad} differ")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
