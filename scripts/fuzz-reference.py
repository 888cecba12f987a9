#!/usr/bin/env python3
"""Differential fuzzer: this repository's green/sgreen/mgreen against the reference CLI.

The reference is the authors' Python package (github.com/shotakoyama/green, not on PyPI).
Get it once with `git clone https://github.com/shotakoyama/green` (or any local checkout or
bare git directory of it); this script installs it into a virtual environment with its two
dependencies (numpy, prettytable, from PyPI) and vendors nothing:

    python3 scripts/fuzz-reference.py --install PATH/TO/green --venv /tmp/green-ref
    python3 scripts/fuzz-reference.py --venv /tmp/green-ref --ours target/release --cases 10000

Each case is a random corpus (1-5 references, 1-3 systems, words with many ties, Unicode
whitespace, CRLF/CR line ends, a BOM, empty lines) and random flags (green/sgreen/mgreen,
-v, -l, betas including 0, -0, 1e-05, 1e6 and 1e16, -d 0..20, -n 1..9, word/char), spelled
as the reference's argparse accepts them: short flags, long names and aliases, unique
prefixes (`--sou`, `--be`, `--l`), `--name=value`, and an option given twice (the last wins). Both programs run with
the same arguments in the same directory; stdout must be byte-identical and the exit status
of the same class (0 or not). A mismatch is shrunk (sentences, files, flags) to a minimal
reproducer and written as a fixture directory under crates/green-cli/tests/fixtures/parity/,
which `cargo test` replays against our binaries without the reference.

Deliberate differences, never generated: files with different numbers of lines (the
reference silently drops the extra lines of references and systems, `zip` style; we refuse),
empty inputs (we refuse to score nothing, the reference prints an empty table), beta = inf
(the reference crashes, we score recall), -d above 20 (the reference's Decimal context
overflows at 28 digits).
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "crates", "green-cli", "tests", "fixtures", "parity")

WORDS = ["a", "the", "cat", "cats", "sat", "on", "mat", "is", "was", ".", ",", "I", "go",
         "goes", "went", "to", "school", "é", "naïve", "猫", "の", "he", "she", "it"]
SPACES = [" ", " ", " ", "  ", "\t", "\u3000", "\u00a0", "\u2003", "\x1c", "\x85"]
ENDINGS = ["\n", "\n", "\n", "\r\n", "\r"]


def install(src, venv_dir):
    """Create `venv_dir` and install the reference from a checkout or git directory."""
    work = tempfile.mkdtemp(prefix="green-ref-src-")
    try:
        checkout = os.path.join(work, "green")
        if os.path.exists(os.path.join(src, "setup.py")):
            shutil.copytree(src, checkout)
        else:
            subprocess.run(["git", "clone", "-q", src, checkout], check=True)
        subprocess.run([sys.executable, "-m", "venv", venv_dir], check=True)
        pip = os.path.join(venv_dir, "bin", "pip")
        subprocess.run([pip, "install", "-q", "--disable-pip-version-check", checkout,
                        "numpy>=2", "prettytable"], check=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def sentence(rng):
    if rng.random() < 0.08:
        return ""
    n = rng.randint(1, 9)
    toks = [rng.choice(WORDS[: rng.randint(3, len(WORDS))]) for _ in range(n)]
    out = toks[0]
    for t in toks[1:]:
        out += rng.choice(SPACES) + t
    if rng.random() < 0.1:
        out = rng.choice(SPACES) + out + rng.choice(SPACES)
    return out


def edit(rng, s):
    """A correction of `s`: a few token edits, sometimes none (ties between references)."""
    toks = s.split()
    for _ in range(rng.randint(0, 3)):
        op = rng.random()
        if op < 0.4 and toks:
            toks[rng.randrange(len(toks))] = rng.choice(WORDS)
        elif op < 0.7:
            toks.insert(rng.randint(0, len(toks)), rng.choice(WORDS))
        elif toks:
            del toks[rng.randrange(len(toks))]
    return " ".join(toks)


def write(lines, rng, bom):
    ending = rng.choice(ENDINGS)
    text = "".join(line + ending for line in lines)
    if lines and lines[-1] and rng.random() < 0.2:
        text = text[: -len(ending)]  # no final line end (an empty last line would vanish)
    return ("\ufeff" if bom else "") + text


def gen_case(rng):
    n = rng.randint(1, 6)
    src = [sentence(rng) for _ in range(n)]
    nrefs, nsys = rng.randint(1, 5), rng.randint(1, 3)
    refs = [[edit(rng, s) for s in src] for _ in range(nrefs)]
    if rng.random() < 0.3 and nrefs > 1:
        refs[1] = list(refs[0])  # identical references: ties in the choice
    syss = [[edit(rng, s) for s in src] for _ in range(nsys)]
    files = {"src.txt": write(src, rng, rng.random() < 0.1)}
    for k, r in enumerate(refs):
        files[f"ref{k}.txt"] = write(r, rng, rng.random() < 0.05)
    for k, c in enumerate(syss):
        files[f"sys{k}.txt"] = write(c, rng, False)
    beta_pool = ["0", "0.3", "0.5", "1", "1.0", "2", "3", "1e6", "0.25", "1e16", "1e-05", "-0",
                 "0.00001", "1e15"]
    betas = rng.sample(beta_pool, rng.randint(1, 3))
    args = option(rng, "-s", ["src.txt"])
    args += option(rng, "-r", [f"ref{k}.txt" for k in range(nrefs)])
    args += option(rng, "-c", [f"sys{k}.txt" for k in range(nsys)])
    args += option(rng, "-b", betas)
    # The reference's Decimal context has 28 digits: a beta of 1e16 printed with -d 12 needs
    # 29 and crashes it (a deliberate difference, not generated).
    most_digits = 10 if any(float(b) >= 1e15 for b in betas) else 20
    small_betas = [b for b in beta_pool if float(b) < 1e15]
    if rng.random() < 0.7:
        args += option(rng, "-d", [str(rng.randint(0, most_digits))])
    if rng.random() < 0.7:
        args += option(rng, "-n", [str(rng.randint(1, 9))])
    if rng.random() < 0.5:
        args += option(rng, "-t", [rng.choice(["word", "char"])])
    if rng.random() < 0.35:
        args += option(rng, "-v", [])
        if rng.random() < 0.5:
            args += option(rng, "-l", [])
    # argparse keeps the last value of an option given twice: give one again, later.
    if rng.random() < 0.2:
        flag, values = rng.choice([
            ("-b", rng.sample(beta_pool if most_digits <= 10 else small_betas, rng.randint(1, 2))),
            ("-n", [str(rng.randint(1, 9))]),
            ("-d", [str(rng.randint(0, most_digits))]),
            ("-r", [f"ref{k}.txt" for k in range(rng.randint(1, nrefs))]),
            ("-c", [f"sys{k}.txt" for k in range(rng.randint(1, nsys))]),
        ])
        args += option(rng, flag, values)
    prog = rng.choice(["green", "sgreen", "mgreen"])
    return {"prog": prog, "args": args, "files": files}


# The reference's spellings of each option (its argparse definitions): the short flag, the
# long names, and prefixes that are unique among its long options (argparse accepts those).
SPELLINGS = {
    "-s": ["-s", "--src", "--source", "--sr", "--so", "--sou"],
    "-r": ["-r", "--ref", "--refs", "--references", "--refe"],
    "-c": ["-c", "-o", "--cor", "--cors", "--corrected", "--corrected-sentences", "--out", "--outs",
           "--outputs", "--hyp", "--hyps", "--hypotheses", "--corrected-", "--outp", "--hypo"],
    "-b": ["-b", "--beta", "--b", "--be", "--bet"],
    "-d": ["-d", "--digit", "--d", "--di", "--dig"],
    "-n": ["-n"],
    "-t": ["-t", "--token", "--tokenize", "--tokenization", "--tokeniza"],
    "-v": ["-v", "--verbose", "--v", "--verb"],
    "-l": ["-l", "--line-verbose", "--l", "--li", "--line"],
}


def option(rng, flag, values):
    """`flag` and its values as the command line may spell them: usually the short flag,
    sometimes a long name or a unique prefix, a single value sometimes as `--name=value`."""
    spelled = flag if rng.random() < 0.6 else rng.choice(SPELLINGS[flag])
    if len(values) == 1 and spelled.startswith("--") and rng.random() < 0.3:
        return [f"{spelled}={values[0]}"]
    return [spelled] + values


# The reference takes logs and exponentials with NumPy, whose AVX-512 code paths (used when
# the CPU has them) differ from the C library by one unit in the last place in ~0.4% of logs
# and ~5% of exponentials, so the reference itself prints different digits from -d 14 on
# depending on the machine. We match its portable path (the C library's log and exp, as
# Python's math module and NumPy on CPUs without AVX-512): the reference runs with NumPy's
# AVX-512 dispatch switched off (NumPy 2 feature names).
REFERENCE_ENV = dict(os.environ, NPY_DISABLE_CPU_FEATURES="X86_V4 AVX512_ICL AVX512_SPR")


def run(bin_dir, case, cwd, env=None):
    exe = os.path.join(bin_dir, case["prog"])
    try:
        p = subprocess.run([exe] + case["args"], cwd=cwd, capture_output=True, timeout=60, env=env)
    except subprocess.TimeoutExpired:
        return b"<timeout>", "timeout"
    return p.stdout, "ok" if p.returncode == 0 else "error"


def outcome(case, ref_bin, our_bin):
    """(reference result, our result) for one case."""
    with tempfile.TemporaryDirectory(prefix="green-fuzz-") as d:
        for name, text in case["files"].items():
            with open(os.path.join(d, name), "w", encoding="utf-8", newline="") as f:
                f.write(text)
        return run(ref_bin, case, d, REFERENCE_ENV), run(our_bin, case, d)


def differs(case, ref_bin, our_bin):
    ref, ours = outcome(case, ref_bin, our_bin)
    return ref != ours


def split_lines(text):
    """Lines with their endings, as Python's universal newlines would split them."""
    out, start, i = [], 0, 0
    while i < len(text):
        if text[i] == "\r":
            end = i + 2 if text[i + 1 : i + 2] == "\n" else i + 1
            out.append(text[start:end])
            start = i = end
            continue
        if text[i] == "\n":
            out.append(text[start : i + 1])
            start = i + 1
        i += 1
    if start < len(text):
        out.append(text[start:])
    return out


def shrink(case, ref_bin, our_bin):
    """Smaller cases that still differ: drop sentences, then flags, then files."""
    best = json.loads(json.dumps(case))
    changed = True
    while changed:
        changed = False
        lines = {k: split_lines(v) for k, v in best["files"].items()}
        count = max(len(v) for v in lines.values())
        for i in range(count - 1, -1, -1):
            if count <= 1:
                break
            trial = json.loads(json.dumps(best))
            trial["files"] = {k: "".join(v[:i] + v[i + 1 :]) for k, v in lines.items()}
            if all(trial["files"].values()) and differs(trial, ref_bin, our_bin):
                best, changed = trial, True
                break
        if changed:
            continue
        for flag in ["-v", "-l"]:
            if flag in best["args"]:
                trial = json.loads(json.dumps(best))
                trial["args"].remove(flag)
                if differs(trial, ref_bin, our_bin):
                    best, changed = trial, True
    return best


def save(case, ref_out, name):
    d = os.path.join(FIXTURES, name)
    os.makedirs(d, exist_ok=True)
    for fname, text in case["files"].items():
        with open(os.path.join(d, fname), "w", encoding="utf-8", newline="") as f:
            f.write(text)
    stdout, status = ref_out
    with open(os.path.join(d, "case.json"), "w", encoding="utf-8") as f:
        json.dump({"prog": case["prog"], "args": case["args"], "status": status}, f, indent=1)
        f.write("\n")
    with open(os.path.join(d, "expected.stdout"), "wb") as f:
        f.write(stdout)
    return d


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--install", metavar="REF_SRC", help="install the reference from this checkout or git directory into --venv")
    ap.add_argument("--venv", default=os.path.join(tempfile.gettempdir(), "green-ref-venv"))
    ap.add_argument("--ours", default=os.path.join(HERE, "..", "target", "release"), help="directory of our green/sgreen/mgreen")
    ap.add_argument("--cases", type=int, default=1000)
    ap.add_argument("--seconds", type=float, default=None, help="stop after this long, whatever --cases says")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--record", metavar="NAME", help="record the case given by --case-json as fixture NAME and exit")
    ap.add_argument("--case-json", metavar="FILE", help="a case: {prog, args, files}")
    a = ap.parse_args()
    a.ours, a.venv = os.path.abspath(a.ours), os.path.abspath(a.venv)
    if a.install:
        install(a.install, a.venv)
    ref_bin = os.path.join(a.venv, "bin")
    if not os.path.exists(os.path.join(ref_bin, "sgreen")):
        sys.exit(f"fuzz-reference: no reference in {a.venv}; run with --install PATH/TO/green first")
    for prog in ["green", "sgreen", "mgreen"]:
        if not os.path.exists(os.path.join(a.ours, prog)):
            sys.exit(f"fuzz-reference: {a.ours}/{prog} not found; build with cargo build --release -p green-cli")
    if a.record:
        with open(a.case_json, encoding="utf-8") as f:
            case = json.load(f)
        ref, ours = outcome(case, ref_bin, a.ours)
        print(save(case, ref, a.record), "matches" if ref == ours else "DIFFERS")
        return
    rng = random.Random(a.seed)
    start, mismatches, done = time.time(), 0, 0
    while done < a.cases and (a.seconds is None or time.time() - start < a.seconds):
        case = gen_case(rng)
        done += 1
        ref, ours = outcome(case, ref_bin, a.ours)
        if ref == ours:
            continue
        mismatches += 1
        small = shrink(case, ref_bin, a.ours)
        ref_small, ours_small = outcome(small, ref_bin, a.ours)
        d = save(small, ref_small, f"seed{a.seed}-case{done}")
        print(f"mismatch in case {done} ({small['prog']} {' '.join(small['args'])}): fixture {d}")
        print(f"  reference ({ref_small[1]}): {ref_small[0][:300]!r}")
        print(f"  ours      ({ours_small[1]}): {ours_small[0][:300]!r}")
    print(f"fuzz-reference: {done} cases in {time.time() - start:.0f} s, {mismatches} mismatches (seed {a.seed})")
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
