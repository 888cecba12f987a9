#!/usr/bin/env python3
"""Differential fuzzer: `green maxmatch` against the original NUS m2scorer (Python 2).

The original is github.com/nusnlp/m2scorer (`scripts/m2scorer.py`); give a checkout or a bare
git directory of it with --m2scorer (nothing of it is copied into this repository), and a
Python 2.7 interpreter with --python2 (default: pyenv's 2.7.18, then `python2`):

    python3 scripts/fuzz-m2scorer.py --ours target/release --cases 5000 --seconds 180

Each case is a small random corpus built to produce ties: a tiny vocabulary (with case
variants for --ignore_whitespace_casing, some of them letters whose case differs between
Python 2.7's Unicode 5.2 and today's: Georgian Mtavruli, Cherokee, dotted I, Deseret), 1-3
annotators (sometimes up to 8, so the original's dict grows) whose ids are mostly among 0..4
but also beyond its table size, negative or -1, first seen in random order, some copying
another's edits (exact ties, decided by the original's dict order), duplicated and
out-of-order gold edits, `||` alternatives, `-NONE-`, `noop` lines, insertions at the start,
blocks without A lines, system lines made from a gold annotator's edits plus noise; and random
options (beta, max_unchanged_words 0..3, whitespace/casing, --very_verbose) spelled as getopt
accepts them (unique prefixes such as --be, --max, --ign; --name=value; repeated options).
Both programs score it with -v: the three score lines must be identical, and for every
sentence the chosen annotator, its counts and its (shrunk) edit sequence.

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
# Case pairs that Python 2.7 (Unicode 5.2) and today's Unicode disagree on (Georgian
# Mtavruli, Cherokee, Cyrillic of Unicode 6), or agree on only one to one (dotted I, sigma),
# or that need a wide build (Deseret).
CASE_PAIRS = [("A", "a"), ("\u1c90", "\u10d0"), ("\u13a0", "\uab70"), ("\u10a0", "\u2d00"),
              ("\u0130", "i"), ("\u0130", "i\u0307"), ("\u03a3", "\u03c3"), ("\u03a3", "\u03c2"),
              ("\U00010400", "\U00010428"), ("\u0526", "\u0527")]
CASED = sorted({t for pair in CASE_PAIRS for t in pair})
PARTNERS = {}
for _u, _l in CASE_PAIRS:
    PARTNERS.setdefault(_u, []).append(_l)
    PARTNERS.setdefault(_l, []).append(_u)
# Annotator ids beyond the dict's first table (8 slots), sharing its slots, negative, -1.
ODD_IDS = [-1, -2, -5, 5, 6, 7, 8, 9, 13, 16, 32, 40, 1000, 2 ** 40]
# The original's long options and the shortest prefix getopt takes as each.
LONG = {"beta": "b", "max_unchanged_words": "m", "ignore_whitespace_casing": "i",
        "very_verbose": "very"}


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


def rand_tokens(rng, lo, hi, vocab):
    return [rng.choice(vocab) for _ in range(rng.randint(lo, hi))]


def rand_edit(rng, n, vocab):
    s = rng.randint(0, n)
    e = s if rng.random() < 0.3 or s == n else rng.randint(s, min(n, s + 3))
    corr = " ".join(rand_tokens(rng, 0 if e > s else 1, 2, vocab))
    return [s, e, corr or "-NONE-"]


def rand_ids(rng):
    """Annotator ids in the order of their first line."""
    n = rng.choice([1, 1, 2, 2, 3] if rng.random() < 0.9 else [5, 6, 7, 8])
    if rng.random() < 0.6:
        ids = sorted(rng.sample(range(5), min(n, 5)))
    else:
        ids = rng.sample(list(range(5)) + ODD_IDS, n)
    return ids


def apply(src, edits):
    out, off = list(src), 0
    for s, e, corr in sorted(edits, key=lambda x: (x[0], x[1])):
        c = [] if corr == "-NONE-" else corr.split("||")[0].split()
        out[s + off:e + off] = c
        off += len(c) - (e - s)
    return out


def rand_sentence(rng, vocab):
    src = rand_tokens(rng, 0, 7, vocab)
    n = len(src)
    lines = ["S " + " ".join(src)]
    ids = rand_ids(rng)
    per = {}
    if rng.random() < 0.1:
        ids = []
    for a in ids:
        edits = []
        if rng.random() < 0.15:
            lines.append("A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||%d" % a)
        used = set()
        for _ in range(rng.randint(0, 3)):
            s, e, corr = rand_edit(rng, n, vocab)
            if any(not (e <= u0 or s >= u1) or (s == e == u0) for u0, u1 in used):
                continue
            used.add((s, e))
            if rng.random() < 0.2:
                corr += "||" + " ".join(rand_tokens(rng, 1, 2, vocab))
            edits.append([s, e, corr])
        if per and rng.random() < 0.25:
            edits = [list(x) for x in per[rng.choice(list(per))]]
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
        if vocab is CASED and hyp and rng.random() < 0.5:
            i = rng.randrange(len(hyp))
            hyp[i] = rng.choice(PARTNERS.get(hyp[i], CASED))
        elif op < 0.4:
            hyp.insert(i, rng.choice(vocab))
        elif hyp and i < len(hyp):
            if op < 0.7:
                del hyp[i]
            else:
                hyp[i] = rng.choice(vocab)
    return "\n".join(lines) + "\n", " ".join(hyp)


def spell(rng, name, value=None):
    """A long option as getopt may be given it: a unique prefix, and `=value` or a word."""
    least = LONG[name]
    shown = "--" + (name if rng.random() < 0.5 else name[:rng.randint(len(least), len(name))])
    if value is None:
        return [shown]
    return [shown + "=" + value] if rng.random() < 0.3 else [shown, value]


def rand_args(rng, cased):
    """The command line as given, and the same with full option names (for the fixtures)."""
    given, full = [], []

    def add(name, value=None):
        given.extend(spell(rng, name, value))
        full.extend(["--" + name] + ([] if value is None else [value]))

    if rng.random() < 0.5:
        if rng.random() < 0.1:  # repeated: the last value counts
            given.extend(spell(rng, "beta", rng.choice(["0.5", "3"])))
        add("beta", rng.choice(["0.5", "1", "0.25", "2", "1.5"]))
    if rng.random() < 0.4:
        add("max_unchanged_words", str(rng.randint(0, 3)))
    if rng.random() < (0.7 if cased else 0.3):
        add("ignore_whitespace_casing")
    if rng.random() < 0.05:
        given.extend(spell(rng, "very_verbose"))  # -v here; the fuzzer passes -v anyway
    return given, full


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
                       capture_output=True, text=True, encoding="utf-8", timeout=600)
    if p.returncode != 0:
        return None
    return parse_original(p.stdout)


def run_ours(green, d, args):
    p = subprocess.run([green, "maxmatch", "-v"] + args + [os.path.join(d, "system.txt"),
                                                           os.path.join(d, "gold.m2")],
                       capture_output=True, text=True, encoding="utf-8", timeout=600)
    if p.returncode != 0:
        return ("error: " + p.stderr, "")
    lines = p.stdout.splitlines(True)
    return "".join(lines[-3:]), "".join(lines[:-3])


def write_case(d, sents, args):
    with open(os.path.join(d, "gold.m2"), "w", encoding="utf-8") as f:
        f.write("\n".join(g for g, _ in sents))
    with open(os.path.join(d, "system.txt"), "w", encoding="utf-8") as f:
        f.write("".join(h + "\n" for _, h in sents))
    with open(os.path.join(d, "args"), "w", encoding="utf-8") as f:
        f.write(" ".join(args) + "\n")


def differs(py2, scorer, green, d, sents, args):
    write_case(d, sents, args)
    theirs = run_original(py2, scorer, d, args)
    if theirs is None:
        return None
    return theirs if run_ours(green, d, args) != theirs else False


def record(d, theirs):
    with open(os.path.join(d, "expected.txt"), "w", encoding="utf-8") as f:
        f.write(theirs[0])
    with open(os.path.join(d, "expected.tsv"), "w", encoding="utf-8") as f:
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
            cased = rng.random() < 0.2
            vocab = CASED if cased else VOCAB
            sents = [rand_sentence(rng, vocab) for _ in range(rng.randint(1, 4))]
            args, full = rand_args(rng, cased)
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
            write_case(out, sents, full)
            record(out, theirs)
            print("mismatch (options given as %s), recorded" % " ".join(args), out,
                  file=sys.stderr)
        print("fuzz-m2scorer: %d cases in %.0f s, %d mismatches" % (done, time.time() - start, bad))
        sys.exit(1 if bad else 0)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
