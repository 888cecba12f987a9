#!/usr/bin/env python3
"""Differential fuzzer: `green maxmatch` against the original NUS m2scorer (Python 2).

The original is github.com/nusnlp/m2scorer (`scripts/m2scorer.py`); give a checkout or a bare
git directory of it with --m2scorer (nothing of it is copied into this repository), and a
Python 2.7 interpreter with --python2 (default: pyenv's 2.7.18, then `python2`):

    python3 scripts/fuzz-m2scorer.py --ours target/release --cases 5000 --seconds 180

Each case is a small random corpus built to produce ties: a tiny vocabulary (with case
variants for --ignore_whitespace_casing), 1-3 annotators with ids among 0..4, duplicated and
out-of-order gold edits, `||` alternatives, `-NONE-`, `noop` lines, insertions at the start,
blocks without A lines, system lines made from a gold annotator's edits plus noise; and random
options (beta, max_unchanged_words 0..3, whitespace/casing). Both programs score it with -v:
the three score lines must be identical, and for every sentence the chosen annotator, its
counts and its (shrunk) edit sequence.

A mismatch is shrunk (sentences dropped while it persists) and written as a fixture under
crates/green-m2/tests/fixtures/parity/ (gold.m2, system.txt, args, expected.txt with the
original's scores, expected.tsv with its per-sentence choices), which `cargo test` replays.
`--record DIR` writes the expected files for a hand-made case the same way.
"""

import argparse
import ast
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "crates", "green-m2", "tests", "fixtures", "parity")
VOCAB = ["a", "b", "c", "the", "A", "The", "x"]


def find_python2(given):
    cands = [given] if given else [
        os.path.expanduser("~/.pyenv/versions/2.7.18/bin/python2.7"), "python2.7", "python2"]
    for c in cands:
        try:
            out = subprocess.run([c, "-c", "import sys; print(sys.version_info[0])"],
                                 capture_output=True, text=True)
        except OSError:
            continue
        if out.returncode == 0 and out.stdout.strip() == "2":
            return c
    sys.exit("fuzz-m2scorer: no Python 2.7 found; give --python2")


def unpack(src, dest):
    """Copy the original's scripts/ from a checkout or a bare git directory into dest."""
    if os.path.exists(os.path.join(src, "scripts", "m2scorer.py")):
        shutil.copytree(os.path.join(src, "scripts"), os.path.join(dest, "scripts"))
    else:
        tar = subprocess.run(["git", "--git-dir", src, "archive", "HEAD", "scripts"],
                             capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", dest], input=tar, check=True)
    return os.path.join(dest, "scripts", "m2scorer.py")


def rand_tokens(rng, lo, hi):
    return [rng.choice(VOCAB) for _ in range(rng.randint(lo, hi))]


def rand_edit(rng, n):
    s = rng.randint(0, n)
    e = s if rng.random() < 0.3 or s == n else rng.randint(s, min(n, s + 3))
    corr = " ".join(rand_tokens(rng, 0 if e > s else 1, 2))
    return [s, e, corr or "-NONE-"]


def apply(src, edits):
    out, off = list(src), 0
    for s, e, corr in sorted(edits, key=lambda x: (x[0], x[1])):
        c = [] if corr == "-NONE-" else corr.split("||")[0].split()
        out[s + off:e + off] = c
        off += len(c) - (e - s)
    return out


def rand_sentence(rng):
    src = rand_tokens(rng, 0, 7)
    n = len(src)
    lines = ["S " + " ".join(src)]
    ids = sorted(rng.sample(range(5), rng.choice([1, 1, 2, 2, 3])))
    per = {}
    if rng.random() < 0.1:
        ids = []
    for a in ids:
        edits = []
        if rng.random() < 0.15:
            lines.append("A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||%d" % a)
        used = set()
        for _ in range(rng.randint(0, 3)):
            s, e, corr = rand_edit(rng, n)
            if any(not (e <= u0 or s >= u1) or (s == e == u0) for u0, u1 in used):
                continue
            used.add((s, e))
            if rng.random() < 0.2:
                corr += "||" + " ".join(rand_tokens(rng, 1, 2))
            edits.append([s, e, corr])
        shown = list(edits)
        if rng.random() < 0.2 and shown:
            shown.append(rng.choice(shown))
        if rng.random() < 0.3:
            rng.shuffle(shown)
        for s, e, corr in shown:
            lines.append("A %d %d|||T|||%s|||REQUIRED|||-NONE-|||%d" % (s, e, corr, a))
        per[a] = edits
    if per and rng.random() < 0.6:
        hyp = apply(src, per[rng.choice(list(per))])
    else:
        hyp = list(src)
    for _ in range(rng.choice([0, 0, 1, 2])):
        op = rng.random()
        i = rng.randint(0, len(hyp))
        if op < 0.4:
            hyp.insert(i, rng.choice(VOCAB))
        elif hyp and i < len(hyp):
            if op < 0.7:
                del hyp[i]
            else:
                hyp[i] = rng.choice(VOCAB)
    return "\n".join(lines) + "\n", " ".join(hyp)


def rand_args(rng):
    args = []
    if rng.random() < 0.5:
        args += ["--beta", rng.choice(["0.5", "1", "0.25", "2", "1.5"])]
    if rng.random() < 0.4:
        args += ["--max_unchanged_words", str(rng.randint(0, 3))]
    if rng.random() < 0.3:
        args += ["--ignore_whitespace_casing"]
    return args


def parse_original(out):
    """The original's -v output: score lines and per sentence (annotator, counts, edits)."""
    rows, blocks, prev = [], {}, (0, 0, 0)
    cur, lines = None, out.splitlines()
    for line in lines:
        if line.startswith(">> Annotator:"):
            cur = int(line.split(":", 1)[1])
            blocks[cur] = {}
        elif line.startswith("EDIT SEQ      :"):
            blocks[cur]["edits"] = ast.literal_eval(line.split(":", 1)[1].strip())
        elif line.startswith("# correct     :"):
            blocks[cur]["c"] = int(line.split(":")[1])
        elif line.startswith("# proposed    :"):
            blocks[cur]["p"] = int(line.split(":")[1])
        elif line.startswith("# gold        :"):
            blocks[cur]["g"] = int(line.split(":")[1])
        elif line.startswith(">> Chosen Annotator for line"):
            k = int(line.rsplit(":", 1)[1])
            b = blocks[k]
            counts = (b["c"] - prev[0], b["p"] - prev[1], b["g"] - prev[2])
            prev = (b["c"], b["p"], b["g"])
            edits = json.dumps([list(e) for e in b["edits"]], ensure_ascii=False)
            rows.append("%d\t%d\t%d\t%d\t%d\t%s" % ((len(rows) + 1, k) + counts + (edits,)))
            blocks = {}
    score = "\n".join(l for l in lines if l.startswith(("Precision   :", "Recall      :"))
                      or (l.startswith("F_") and "       : " in l))
    table = "line\tannotator\tcorrect\tproposed\tgold\tsystem_edits\n" + "".join(r + "\n" for r in rows)
    return score + "\n", table


def run_original(py2, scorer, d, args):
    p = subprocess.run([py2, scorer, "-v"] + args + [os.path.join(d, "system.txt"),
                                                      os.path.join(d, "gold.m2")],
                       capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        return None
    return parse_original(p.stdout)


def run_ours(green, d, args):
    p = subprocess.run([green, "maxmatch", "-v"] + args + [os.path.join(d, "system.txt"),
                                                           os.path.join(d, "gold.m2")],
                       capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        return ("error: " + p.stderr, "")
    lines = p.stdout.splitlines(True)
    return "".join(lines[-3:]), "".join(lines[:-3])


def write_case(d, sents, args):
    with open(os.path.join(d, "gold.m2"), "w") as f:
        f.write("\n".join(g for g, _ in sents))
    with open(os.path.join(d, "system.txt"), "w") as f:
        f.write("".join(h + "\n" for _, h in sents))
    with open(os.path.join(d, "args"), "w") as f:
        f.write(" ".join(args) + "\n")


def differs(py2, scorer, green, d, sents, args):
    write_case(d, sents, args)
    theirs = run_original(py2, scorer, d, args)
    if theirs is None:
        return None
    return theirs if run_ours(green, d, args) != theirs else False


def record(d, theirs):
    with open(os.path.join(d, "expected.txt"), "w") as f:
        f.write(theirs[0])
    with open(os.path.join(d, "expected.tsv"), "w") as f:
        f.write(theirs[1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--m2scorer", default="/work/.mirror/nusnlp+m2scorer/repo")
    ap.add_argument("--python2")
    ap.add_argument("--ours", default="target/release")
    ap.add_argument("--cases", type=int, default=1000)
    ap.add_argument("--seconds", type=float, default=180)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--record", metavar="DIR", help="write expected files for DIR's gold.m2, system.txt, args")
    a = ap.parse_args()
    py2 = find_python2(a.python2)
    work = tempfile.mkdtemp(prefix="fuzz-m2-")
    try:
        scorer = unpack(a.m2scorer, work)
        if a.record:
            args = open(os.path.join(a.record, "args")).read().split()
            theirs = run_original(py2, scorer, a.record, args)
            if theirs is None:
                sys.exit("the original fails on " + a.record)
            record(a.record, theirs)
            print("recorded", a.record)
            return
        green = os.path.join(a.ours, "green")
        rng = random.Random(a.seed)
        d = os.path.join(work, "case")
        os.makedirs(d)
        start, done, bad = time.time(), 0, 0
        while done < a.cases and time.time() - start < a.seconds:
            sents = [rand_sentence(rng) for _ in range(rng.randint(1, 4))]
            args = rand_args(rng)
            theirs = differs(py2, scorer, green, d, sents, args)
            done += 1
            if not theirs:
                continue
            bad += 1
            i = 0
            while i < len(sents) and len(sents) > 1:
                t = differs(py2, scorer, green, d, sents[:i] + sents[i + 1:], args)
                if t:
                    sents, theirs = sents[:i] + sents[i + 1:], t
                else:
                    i += 1
            out = os.path.join(FIXTURES, "fuzz-%d-%d" % (a.seed, done))
            os.makedirs(out, exist_ok=True)
            write_case(out, sents, args)
            record(out, theirs)
            print("mismatch, recorded", out, file=sys.stderr)
        print("fuzz-m2scorer: %d cases in %.0f s, %d mismatches" % (done, time.time() - start, bad))
        sys.exit(1 if bad else 0)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
