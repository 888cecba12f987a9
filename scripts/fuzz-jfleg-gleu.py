#!/usr/bin/env python3
"""Differential fuzzer: `green gleu --variant jfleg|gec-ranking` against Napoles' scripts.

The originals are JFLEG's `eval/gleu.py` (github.com/keisks/jfleg) and `scripts/compute_gleu`
with its `scripts/gleu.py` (github.com/cnap/gec-ranking); give checkouts or bare git
directories of them with --jfleg and --gec-ranking (nothing of them is copied into this
repository), and a Python 2.7 with NumPy and SciPy with --python2 (default: pyenv's 2.7.18,
then `python2`):

    python3 scripts/fuzz-jfleg-gleu.py --ours target/release --cases 3000 --seconds 600

Each case is a small random corpus written as bytes: a tiny vocabulary with byte strings that
are whitespace to Python 3 but not to Python 2's `str.split` (U+00A0 and U+3000 in UTF-8, a
lone 0xA0, 0x1C..0x1F), invalid UTF-8, tokens separated by runs of spaces, tabs, `\\r`, `\\v`,
`\\f`, empty lines and lines of spaces, a last line without `\\n`; 0 to 6 sentences, 1 to 5
references edited from the source (some equal to it or to each other), 1 to 3 hypotheses (a
reference, the source or an edit of either; sometimes fewer lines than the source, sometimes
read from standard input); reference files sometimes shorter than the source; and random
options: the script, `-n` (-2 to 9), sentence output
(`--sent` / `-d`), compute_gleu's `--iter` (0 to 600). eval/gleu.py is always run with its
500 iterations (its `--iter` is a string and fails). Both programs must print the same bytes
on standard output, or both fail.

A mismatch is shrunk (sentences dropped while it persists) and written as a fixture under
crates/green-cli/tests/fixtures/gleu-napoles/ (the files; `cases.txt`, a line `NAME ARGS...`
per case with green's arguments after `gleu`; `expected/NAME.txt` with the original's output,
or an empty `expected/NAME.fails` where it fails; `stdin.txt`, standard input of every case),
which `cargo test` replays. `--record DIR` writes the expected files of a hand-made fixture;
with `--data DATA` its cases run in DATA (real data, kept outside the repository: the JFLEG
goldens of crates/green-cli/tests/fixtures/gleu-jfleg are recorded with
`--record crates/green-cli/tests/fixtures/gleu-jfleg --data ../shared/data/jfleg`).
"""

import argparse
import os
import random
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "crates", "green-cli", "tests", "fixtures", "gleu-napoles")
WORDS = [b"a", b"b", b"c", b"the", b"A", b"x", b"of"]
# Not whitespace to Python 2's byte str.split (all but 0xA0 are whitespace to Python 3's).
ODD = [b"\xc2\xa0", b"\xe3\x80\x80", b"\xa0", b"\x1c", b"\x1f", b"\xc3\xa9", b"\xff\xfe", b"\x85"]
SEPARATORS = [b" ", b" ", b" ", b"  ", b"\t", b"\r", b"\x0b", b"\x0c", b" \r "]


def find_python2(given):
    cands = [given] if given else [
        os.path.expanduser("~/.pyenv/versions/2.7.18/bin/python2.7"), "python2.7", "python2"]
    for c in cands:
        try:
            out = subprocess.run([c, "-c", "import sys, numpy, scipy.stats; print(sys.version_info[0])"],
                                 capture_output=True, text=True)
        except OSError:
            continue
        if out.returncode == 0 and out.stdout.strip() == "2":
            return c
    sys.exit("fuzz-jfleg-gleu: no Python 2.7 with numpy and scipy found; give --python2")


def unpack(src, files, dest):
    """Copy `files` from a checkout or a bare git directory into dest (flat)."""
    os.makedirs(dest, exist_ok=True)
    for f in files:
        path = os.path.join(src, f)
        if os.path.exists(path):
            shutil.copy(path, dest)
        else:
            text = subprocess.run(["git", "--git-dir", src, "show", "HEAD:" + f],
                                  capture_output=True, check=True).stdout
            with open(os.path.join(dest, os.path.basename(f)), "wb") as out:
                out.write(text)


def rand_tokens(rng, lo, hi):
    vocab = WORDS + (ODD if rng.random() < 0.3 else [])
    return [rng.choice(vocab) for _ in range(rng.randint(lo, hi))]


def edit(rng, tokens):
    out = list(tokens)
    for _ in range(rng.choice([0, 1, 1, 2, 3])):
        i = rng.randint(0, len(out))
        op = rng.random()
        if op < 0.4:
            out.insert(i, rng.choice(WORDS))
        elif out and i < len(out):
            if op < 0.7:
                del out[i]
            else:
                out[i] = rng.choice(WORDS + ODD)
    return out


def join(rng, tokens):
    """A line of `tokens` with random separators, sometimes around it too."""
    if not tokens:
        return rng.choice([b"", b"", b" ", b"\t", b"\r"])
    line = tokens[0]
    for t in tokens[1:]:
        line += rng.choice(SEPARATORS) + t
    if rng.random() < 0.1:
        line = rng.choice(SEPARATORS) + line
    if rng.random() < 0.1:
        line += rng.choice(SEPARATORS)
    return line


def rand_case(rng):
    """(sentences, number of references, hypothesis sources, options)."""
    n_sent = rng.choice([0, 1, 1, 2, 3, 4, 6]) if rng.random() < 0.97 else 0
    n_refs = rng.choice([1, 2, 2, 3, 4, 4, 5])
    n_hyps = rng.choice([1, 1, 2, 3])
    sents = []
    for _ in range(n_sent):
        src = rand_tokens(rng, 0, 8)
        refs = []
        for r in range(n_refs):
            if refs and rng.random() < 0.15:
                refs.append(list(rng.choice(refs)))
            elif rng.random() < 0.1:
                refs.append(list(src))
            else:
                refs.append(edit(rng, src))
        hyps = []
        for _ in range(n_hyps):
            base = rng.choice([src] + refs)
            hyps.append(list(base) if rng.random() < 0.3 else edit(rng, base))
        sents.append((join(rng, src), [join(rng, r) for r in refs], [join(rng, h) for h in hyps]))
    script = rng.choice(["jfleg", "gec-ranking"])
    opts = {"script": script, "sent": rng.random() < 0.25}
    if rng.random() < 0.3:
        opts["n"] = rng.choice([-2, -1, 0, 1, 2, 3, 4, 5, 6, 9])
    if script == "gec-ranking" and rng.random() < 0.5:
        opts["iter"] = rng.choice([0, 1, 2, 3, 7, 37, 100, 600])
    # Hypotheses shorter than the source (the scripts score the first lines), or read from
    # standard input.
    opts["short"] = [rng.randint(0, n_sent) if rng.random() < 0.1 else n_sent for _ in range(n_hyps)]
    opts["stdin"] = rng.randrange(n_hyps) if rng.random() < 0.1 else None
    opts["final_newline"] = rng.random() < 0.85
    # Reference files shorter than the source (the scripts keep, per line, the references
    # that have it, and fail on a draw past them).
    opts["ref_short"] = [rng.randint(0, n_sent) if rng.random() < 0.05 else n_sent
                         for _ in range(n_refs)]
    return sents, n_refs, n_hyps, opts


def write_lines(path, lines, final_newline):
    with open(path, "wb") as f:
        f.write(b"\n".join(lines) + (b"\n" if lines and final_newline else b""))


def write_case(d, sents, n_refs, n_hyps, opts):
    """The files of a case in d, and green's arguments after `gleu`."""
    for name in os.listdir(d):
        if os.path.isfile(os.path.join(d, name)):
            os.remove(os.path.join(d, name))
    nl = opts["final_newline"]
    write_lines(os.path.join(d, "src.txt"), [s for s, _, _ in sents], nl)
    for r in range(n_refs):
        lines = [rs[r] for _, rs, _ in sents][:opts.get("ref_short", [len(sents)] * n_refs)[r]]
        write_lines(os.path.join(d, "ref%d.txt" % r), lines, nl)
    hyp_args = []
    for h in range(n_hyps):
        lines = [hs[h] for _, _, hs in sents][:opts["short"][h]]
        name = "stdin.txt" if opts["stdin"] == h else "hyp%d.txt" % h
        write_lines(os.path.join(d, name), lines, nl)
        hyp_args.append("-" if opts["stdin"] == h else name)
    args = ["-s", "src.txt", "-r"] + ["ref%d.txt" % r for r in range(n_refs)] + ["-o"] + hyp_args
    args += ["--variant", opts["script"]]
    if "n" in opts:
        args += ["-n", str(opts["n"])]
    if "iter" in opts:
        args += ["--iter", str(opts["iter"])]
    if opts["sent"]:
        args.append("--sent")
    return args


def original_command(py2, scripts, args):
    """The original's command line for green's `args` (as write_case writes them)."""
    it = iter(args)
    src, refs, hyps, script, n, iters, sent = None, [], [], None, None, None, False
    current = None
    for a in it:
        if a == "-s":
            src, current = next(it), None
        elif a == "-r":
            current = refs
        elif a == "-o":
            current = hyps
        elif a == "--variant":
            script, current = next(it), None
        elif a == "-n":
            n, current = next(it), None
        elif a == "--iter":
            iters, current = next(it), None
        elif a in ("--sent", "--debug"):
            sent, current = True, None
        else:
            current.append(a)
    n_args = ["-n", n] if n is not None else []
    if script == "jfleg":
        cmd = [py2, os.path.join(scripts, "jfleg", "gleu.py"), "-s", src, "-r"] + refs + ["--hyp"] + hyps
        return cmd + n_args + (["--sent"] if sent else [])
    cmd = [py2, os.path.join(scripts, "gec-ranking", "compute_gleu"), "-s", src, "-r"] + refs + ["-o"] + hyps
    return cmd + n_args + (["--iter", iters] if iters is not None else []) + (["-d"] if sent else [])


def stdin_of(d):
    path = os.path.join(d, "stdin.txt")
    return open(path, "rb").read() if os.path.exists(path) else b""


def run_original(py2, scripts, d, args):
    p = subprocess.run(original_command(py2, scripts, args), cwd=d, input=stdin_of(d),
                       capture_output=True, timeout=600)
    return p.stdout if p.returncode == 0 else None


def run_ours(green, d, args):
    p = subprocess.run([green, "gleu"] + args, cwd=d, input=stdin_of(d), capture_output=True,
                       timeout=600)
    return p.stdout if p.returncode == 0 else None


def outputs(py2, scripts, green, d, case):
    """(original's output, ours) on the case; an output is None where the program failed."""
    args = write_case(d, *case)
    return run_original(py2, scripts, d, args), run_ours(green, d, args)


def record(d, name, theirs):
    """The original's output as the fixture's expected/NAME.txt, or expected/NAME.fails
    (empty) where it failed."""
    os.makedirs(os.path.join(d, "expected"), exist_ok=True)
    for ext in (".txt", ".fails"):
        if os.path.exists(os.path.join(d, "expected", name + ext)):
            os.remove(os.path.join(d, "expected", name + ext))
    with open(os.path.join(d, "expected", name + (".fails" if theirs is None else ".txt")), "wb") as f:
        f.write(theirs or b"")


def cases(d):
    """The fixture's cases: (name, green's arguments after `gleu`) per line of cases.txt."""
    with open(os.path.join(d, "cases.txt")) as f:
        return [(w[0], w[1:]) for w in (shlex.split(line) for line in f) if w]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jfleg", default="/work/.mirror/keisks+jfleg/repo")
    ap.add_argument("--gec-ranking", default="/work/.mirror/cnap+gec-ranking/repo/.git")
    ap.add_argument("--python2")
    ap.add_argument("--ours", default="target/release")
    ap.add_argument("--cases", type=int, default=1000)
    ap.add_argument("--seconds", type=float, default=180)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--record", metavar="DIR", help="write expected.txt for DIR's files and args")
    ap.add_argument("--data", metavar="DATA", help="with --record: run the cases in DATA")
    a = ap.parse_args()
    py2 = find_python2(a.python2)
    work = tempfile.mkdtemp(prefix="fuzz-jfleg-")
    try:
        scripts = os.path.join(work, "scripts")
        unpack(a.jfleg, ["eval/gleu.py"], os.path.join(scripts, "jfleg"))
        unpack(a.gec_ranking, ["scripts/compute_gleu", "scripts/gleu.py"],
               os.path.join(scripts, "gec-ranking"))
        if a.record:
            data = os.path.abspath(a.data or a.record)
            for name, args in cases(a.record):
                record(a.record, name, run_original(py2, scripts, data, args))
            print("recorded", a.record)
            return
        green = os.path.abspath(os.path.join(a.ours, "green"))
        rng = random.Random(a.seed)
        d = os.path.join(work, "case")
        os.makedirs(d)
        start, done, bad, failed = time.time(), 0, 0, 0
        while done < a.cases and time.time() - start < a.seconds:
            sents, n_refs, n_hyps, opts = rand_case(rng)
            result = outputs(py2, scripts, green, d, (sents, n_refs, n_hyps, opts))
            done += 1
            if result[0] == result[1]:
                failed += result[0] is None
                continue
            bad += 1
            i = 0
            while i < len(sents) and len(sents) > 1:
                fewer = sents[:i] + sents[i + 1:]
                short = dict(opts, short=[min(s, len(fewer)) for s in opts["short"]],
                             ref_short=[min(s, len(fewer)) for s in opts["ref_short"]])
                r = outputs(py2, scripts, green, d, (fewer, n_refs, n_hyps, short))
                if r[0] != r[1]:
                    sents, opts, result = fewer, short, r
                else:
                    i += 1
            out = os.path.join(FIXTURES, "fuzz-%d-%d" % (a.seed, done))
            os.makedirs(out, exist_ok=True)
            args = write_case(out, sents, n_refs, n_hyps, opts)
            with open(os.path.join(out, "cases.txt"), "w") as f:
                f.write("fuzz " + " ".join(args) + "\n")
            record(out, "fuzz", result[0])
            print("mismatch, recorded %s\n  original: %r\n  green:    %r" % (out, result[0], result[1]),
                  file=sys.stderr)
        print("fuzz-jfleg-gleu: %d cases in %.0f s (%d where both fail), %d mismatches"
              % (done, time.time() - start, failed, bad))
        sys.exit(1 if bad else 0)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
