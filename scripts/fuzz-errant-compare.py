#!/usr/bin/env python3
"""Differential test: `green errant-compare` against ERRANT 3.0.2's `errant_compare` (and, with
--cherrant, `green errant-compare --cherrant` against ChERRANT's `compare_m2_for_evaluation.py`).

The original is `errant/commands/compare_m2.py` of github.com/chrisjbryant/errant at tag
v3.0.2; give a checkout or a bare git directory of it with --errant (nothing of it is copied
into this repository). It needs only the Python 3 standard library.

    python3 scripts/fuzz-errant-compare.py --errant DIR --ours target/release --seconds 60
    python3 scripts/fuzz-errant-compare.py --errant DIR --ours target/release --data ../shared/data/cleme

Random cases are small corpora built for ties and duplicates: a tiny vocabulary, 1-3
annotators on each side, repeated edits, UNK and noop lines, blocks without A lines,
insertions, multi-token edits. Each case runs with random flags (-dt/-ds/-cs/-cse, -single,
-multi, -filt, -cat 1-3, -b): the printed output must be identical. With --data, every
conll14-*.errant system there is also compared against conll14.errant under fixed flag sets.
A mismatch is written under crates/green-edits/tests/fixtures/compare/ (hyp.m2, ref.m2,
args, expected.txt), which `cargo test` replays; `--record DIR` writes expected.txt for a
hand-made case the same way.

--cherrant DIR (a checkout or bare git directory of github.com/HillZhang1999/MuCGEC) adds a
run against ChERRANT's scorer (`scorers/ChERRANT/compare_m2_for_evaluation.py`): cases with
target lines (`T0-A1 ...`, alternatives pooled), corrections with spaces, `NA` references,
and `--max_answer_num` / `--reference_num`.
"""

import argparse
import contextlib
import io
import os
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "crates", "green-edits", "tests", "fixtures", "compare")
VOCAB = ["a", "b", "c", "the", "x"]
TYPES = ["R:NOUN", "R:VERB", "M:DET", "U:DET", "R:OTHER", "M:PUNCT", "UNK"]
FLAG_SETS = [[], ["-cat", "3"], ["-cat", "1"], ["-ds", "-cat", "2"], ["-dt", "-cat", "3"],
             ["-cse", "-cat", "2"], ["-single"], ["-multi", "-cat", "1"],
             ["-filt", "R:DET", "M:DET"], ["-b", "1"]]


def load_original(src, rel="errant/commands/compare_m2.py", rev="v3.0.2"):
    """A scorer's main() from a checkout or a bare git directory, as a callable."""
    path = os.path.join(src, rel)
    if os.path.exists(path):
        code = open(path).read()
    else:
        code = subprocess.run(["git", "--git-dir", src, "show", "%s:%s" % (rev, rel)],
                              capture_output=True, check=True, text=True).stdout
    scope = {"__name__": "compare_m2"}
    exec(compile(code, "compare_m2.py", "exec"), scope)

    def run(args):
        out = io.StringIO()
        saved = sys.argv
        sys.argv = ["errant_compare"] + args
        try:
            with contextlib.redirect_stdout(out):
                scope["main"]()
        finally:
            sys.argv = saved
        return out.getvalue()
    return run


def block(rng, n, annotators, hyp):
    toks = [rng.choice(VOCAB) for _ in range(n)]
    lines = ["S " + " ".join(toks)]
    if rng.random() < 0.1:
        return "\n".join(lines)
    for a in range(annotators):
        k = rng.choice([0, 0, 1, 1, 2, 3])
        if k == 0:
            lines.append("A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||%d" % a)
        for _ in range(k):
            s = rng.randint(0, n)
            e = min(n, s + rng.choice([0, 1, 1, 2, 3]))
            cor = rng.choice(["-NONE-", "", rng.choice(VOCAB), " ".join(rng.sample(VOCAB, 2))])
            kind = rng.choice(TYPES)
            line = "A %d %d|||%s|||%s|||REQUIRED|||-NONE-|||%d" % (s, e, kind, cor, a)
            lines.append(line)
            if rng.random() < 0.15:
                lines.append(line)
    return "\n".join(lines)


def cherrant_block(rng, n, annotators):
    toks = [rng.choice(VOCAB) for _ in range(n)]
    lines = ["S " + " ".join(toks)]
    if rng.random() < 0.1:
        return "\n".join(lines + ["T0 none", "A -1 -1|||NA|||-NONE-|||REQUIRED|||-NONE-|||0"])
    for a in range(annotators):
        for alt in range(rng.choice([1, 1, 2])):
            lines.append("T%d-A%d %s" % (a, alt, " ".join(toks)))
            k = rng.choice([0, 1, 1, 2])
            if k == 0:
                lines.append("A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||%d" % a)
            for _ in range(k):
                s = rng.randint(0, n)
                e = min(n, s + rng.choice([0, 1, 2]))
                cor = rng.choice(["-NONE-", rng.choice(VOCAB), " ".join(rng.sample(VOCAB, 2)),
                                  "".join(rng.sample(VOCAB, 2))])
                lines.append("A %d %d|||%s|||%s|||REQUIRED|||-NONE-|||%d"
                             % (s, e, rng.choice(["S", "M", "R", "W", "NA"]), cor, a))
    return "\n".join(lines)


def cherrant_case(rng):
    hyps, refs = [], []
    for _ in range(rng.randint(1, 10)):
        n = rng.randint(1, 5)
        seed = rng.random()
        hyps.append(cherrant_block(random.Random(seed), n, 1))
        ref = cherrant_block(random.Random(seed), n, rng.choice([1, 2, 3]))
        refs.append("\n".join([hyps[-1].split("\n")[0]] + ref.split("\n")[1:]))
    return "\n\n".join(hyps) + "\n", "\n\n".join(refs) + "\n"


def cherrant_flags(rng):
    f = flags(rng)
    if rng.random() < 0.2:
        f += ["--max_answer_num", str(rng.randint(1, 3))]
    if rng.random() < 0.2:
        f += ["--reference_num", str(rng.randint(1, 3))]
    return f


def case(rng):
    sents, hyps, refs = rng.randint(1, 12), [], []
    for _ in range(sents):
        n = rng.randint(1, 6)
        seed = rng.random()
        hyps.append(block(random.Random(seed), n, rng.choice([1, 1, 2]), True))
        ref = block(random.Random(seed), n, rng.choice([1, 2, 3]), False)
        # Same source; edits partly shared with the hypothesis.
        src = hyps[-1].split("\n")[0]
        refs.append("\n".join([src] + ref.split("\n")[1:]))
    return "\n\n".join(hyps) + "\n", "\n\n".join(refs) + "\n"


def flags(rng):
    f = []
    mode = rng.choice([None, "-dt", "-ds", "-cs", "-cse"])
    if mode:
        f.append(mode)
    if rng.random() < 0.15:
        f.append("-single")
    elif rng.random() < 0.15:
        f.append("-multi")
    if rng.random() < 0.15:
        f += ["-filt"] + rng.sample(TYPES, 2)
    if rng.random() < 0.5:
        f += ["-cat", str(rng.randint(1, 3))]
    if rng.random() < 0.3:
        f += ["-b", rng.choice(["1", "0.25", "2"])]
    return f


def ours(bin_dir, args):
    r = subprocess.run([os.path.join(bin_dir, "green"), "errant-compare"] + args,
                       capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else "ERROR: " + r.stderr


def save(hyp, ref, args, expected, dest):
    os.makedirs(dest, exist_ok=True)
    for name, text in [("hyp.m2", hyp), ("ref.m2", ref), ("args", " ".join(args) + "\n"),
                       ("expected.txt", expected)]:
        with open(os.path.join(dest, name), "w") as f:
            f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--errant", default="/work/.mirror/chrisjbryant+errant/repo")
    ap.add_argument("--ours", default="target/release")
    ap.add_argument("--cases", type=int, default=100000)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--data", help="a directory with conll14.errant and conll14-*.errant")
    ap.add_argument("--record", help="write DIR/expected.txt for DIR/hyp.m2, ref.m2, args")
    ap.add_argument("--cherrant", help="also fuzz against ChERRANT's scorer (a MuCGEC checkout)")
    a = ap.parse_args()
    original = load_original(a.errant)
    if a.record:
        d = a.record
        args = open(os.path.join(d, "args")).read().split()
        if "--cherrant" in args:
            args.remove("--cherrant")
            original = load_original(a.cherrant, "scorers/ChERRANT/compare_m2_for_evaluation.py", "HEAD")
        out = original(["-hyp", os.path.join(d, "hyp.m2"), "-ref", os.path.join(d, "ref.m2")] + args)
        open(os.path.join(d, "expected.txt"), "w").write(out)
        return
    failures = 0
    if a.data:
        ref = os.path.join(a.data, "conll14.errant")
        systems = sorted(f for f in os.listdir(a.data) if f.startswith("conll14-"))
        for s in systems:
            for f in FLAG_SETS:
                args = ["-hyp", os.path.join(a.data, s), "-ref", ref] + f
                if original(args) != ours(a.ours, args):
                    failures += 1
                    print("MISMATCH", s, " ".join(f))
        print("errant-compare real data: %d systems x %d flag sets, %d mismatches"
              % (len(systems), len(FLAG_SETS), failures))
    rng = random.Random(a.seed)
    start, n = time.time(), 0
    with tempfile.TemporaryDirectory() as tmp:
        hp, rp = os.path.join(tmp, "hyp.m2"), os.path.join(tmp, "ref.m2")
        while n < a.cases and time.time() - start < a.seconds:
            hyp, ref = case(rng)
            f = flags(rng)
            open(hp, "w").write(hyp)
            open(rp, "w").write(ref)
            args = ["-hyp", hp, "-ref", rp] + f
            try:
                want = original(args)
            except Exception:  # the original crashes: not a case for parity
                continue
            n += 1
            if want != ours(a.ours, args):
                failures += 1
                dest = os.path.join(FIXTURES, "fuzz-%d-%d" % (a.seed, n))
                save(hyp, ref, f, want, dest)
                print("MISMATCH saved to", dest)
    print("errant-compare fuzz: %d cases, %d mismatches" % (n, failures))
    if a.cherrant:
        cherrant = load_original(a.cherrant, "scorers/ChERRANT/compare_m2_for_evaluation.py", "HEAD")
        start, n, before = time.time(), 0, failures
        with tempfile.TemporaryDirectory() as tmp:
            hp, rp = os.path.join(tmp, "hyp.m2"), os.path.join(tmp, "ref.m2")
            while n < a.cases and time.time() - start < a.seconds:
                hyp, ref = cherrant_case(rng)
                f = cherrant_flags(rng)
                open(hp, "w").write(hyp)
                open(rp, "w").write(ref)
                try:
                    want = cherrant(["-hyp", hp, "-ref", rp] + f)
                except Exception:
                    continue
                n += 1
                if want != ours(a.ours, ["-hyp", hp, "-ref", rp, "--cherrant"] + f):
                    failures += 1
                    dest = os.path.join(FIXTURES, "cherrant-fuzz-%d-%d" % (a.seed, n))
                    save(hyp, ref, ["--cherrant"] + f, want, dest)
                    print("MISMATCH saved to", dest)
        print("errant-compare --cherrant fuzz: %d cases, %d mismatches" % (n, failures - before))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
