#!/usr/bin/env python3
"""The order in which the linker lays out the `green` binary's hot code, and its check.

A short run's code is a few hundred functions out of the binary's 7 MB of machine code, and the
linker spreads them over it: a one-line `green` run touched 57 of the 114 64 KiB windows of its
code, each a page fault (3.5-7 µs on a virtual machine). crates/green-cli/build.rs hands the
linker (LLD) `crates/green-cli/code-order.txt`, the functions that typical runs execute, so that
they lie together in a few windows.

`--write` makes that file: it runs callgrind on the runs below (`score` at word and character
level, on one and two threads, one line and 13 systems, then the other common commands on the
CoNLL-14 data of `../shared`), and lists the binary's functions that ran, those of the first
run first, each run's new ones by instructions spent, most first. Symbol names change with the
compiler, a dependency, or, for functions LTO renames (`.llvm.` suffixes), with their module's
code; a name the binary lacks is skipped (`--no-warn-symbol-ordering`), so a stale file only
orders less. `--check` says how much of the file a built binary still has and that those
functions lie together, and fails when either is lost (then run `--write` again).

    cargo build --release -p green-cli --bin green
    python3 scripts/code-order.py --write --shared ../shared   # needs valgrind
    python3 scripts/code-order.py --check target/release/green
"""

import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ORDER = os.path.join(ROOT, "crates", "green-cli", "code-order.txt")
# Least share of the file's names a binary must have for --check to pass.
LEAST_FOUND = 0.6
# Most 64 KiB windows of code the found functions may spread over, per window of their size.
MOST_SPREAD = 2.0
WINDOW = 1 << 16


def runs(shared, scratch):
    """(directory, arguments) of every profiled run, the main job's first."""
    conll = os.path.join(shared, "data", "conll14")
    cleme = os.path.join(shared, "data", "cleme")
    systems = sorted(os.listdir(os.path.join(conll, "systems")))
    one = ["-s", "source.txt", "-r", "ref0.txt", "ref1.txt", "-c", "systems/AMU.txt", "-b", "2"]
    every = ["-s", "source.txt", "-r", "ref0.txt", "ref1.txt", "-c"] + [f"systems/{s}" for s in systems]
    line = os.path.join(scratch, "line")
    os.mkdir(line)
    for name, text in (("s", "He go to school .\n"), ("r", "He goes to school .\n"), ("c", "He go to school .\n")):
        with open(os.path.join(line, name), "w") as f:
            f.write(text)
    return [
        (line, ["-s", "s", "-r", "r", "-c", "c"]),
        (conll, one),
        (conll, one + ["-t", "char", "-n", "6"]),
        (conll, one + ["--threads", "1"]),
        (conll, one + ["-t", "char", "-n", "6", "--threads", "1"]),
        (conll, every + ["-b", "2"]),
        (conll, one + ["-v", "--threads", "1"]),
        (conll, ["maxmatch", "systems/AMU.txt", "conll14st-test.m2"]),
        (conll, ["gleu", "-s", "source.txt", "-r", "ref0.txt", "ref1.txt", "-o", "systems/AMU.txt", "-f"]),
        (cleme, ["errant-compare", "-hyp", "conll14-AMU.errant", "-ref", "conll14.errant"]),
        (cleme, ["cleme", "-hyp", "conll14-AMU.errant", "-ref", "conll14.errant"]),
        (conll, ["errant-parallel", "-orig", "source.txt", "-cor", "systems/AMU.txt", "-out",
                 os.path.join(scratch, "parallel.m2"), "-lev", "-merge", "all-merge"]),
    ]


def executed(profile, binary):
    """Instructions spent in each function of `binary` by a callgrind profile (mangled names).
    Cost lines after `fn=` are the function's own; the line after `calls=` is a call's, skipped."""
    spent = collections.Counter()
    objects, functions = {}, {}
    obj = fn = None
    after_call = False
    for line in open(profile, errors="replace"):
        line = line.rstrip("\n")
        m = re.match(r"^(c?ob|c?fn)=\((\d+)\)(?: (.*))?$", line)
        if m:
            kind, key, name = m.groups()
            table = objects if kind.endswith("ob") else functions
            if name is not None:
                table[key] = name
            if kind == "ob":
                obj = objects[key]
            elif kind == "fn":
                fn = functions[key].split("'")[0] if obj == binary else None
            continue
        if line.startswith("calls="):
            after_call = True
            continue
        if after_call:
            after_call = False
            continue
        parts = line.split()
        if fn and len(parts) >= 2 and re.match(r"^[0-9+*-]", parts[0]) and parts[1].isdigit():
            spent[fn] += int(parts[1])
    # Callgrind's names for code without a symbol ("0x...") and for the C start.
    return {f: n for f, n in spent.items() if not f.startswith(("0x", "("))}


def write(a):
    binary = os.path.realpath(a.green)
    if not shutil.which("valgrind"):
        sys.exit("code-order: --write needs valgrind (apt-get install -y valgrind)")
    if not os.path.isfile(binary):
        sys.exit(f"code-order: {binary} not found: cargo build --release -p green-cli --bin green")
    if not os.path.isdir(os.path.join(a.shared, "data", "conll14")):
        sys.exit(f"code-order: {a.shared}/data/conll14 not found: pass --shared")
    order, seen = [], set()
    with tempfile.TemporaryDirectory() as scratch:
        for k, (where, args) in enumerate(runs(a.shared, scratch)):
            profile = os.path.join(scratch, f"callgrind.{k}")
            subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={profile}",
                            binary] + args, cwd=where, check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            spent = executed(profile, binary)
            new = sorted((f for f in spent if f not in seen), key=lambda f: (-spent[f], f))
            order += new
            seen.update(new)
            print(f"code-order: {' '.join(args[:3])} ...: {len(new)} more functions", file=sys.stderr)
    with open(ORDER, "w") as f:
        f.write("".join(name + "\n" for name in order))
    print(f"code-order: wrote {len(order)} functions to {os.path.relpath(ORDER, ROOT)}")


def symbols(binary):
    """Address and size of each defined function symbol of `binary`, by name."""
    if not shutil.which("nm"):
        sys.exit("code-order: --check needs nm (binutils)")
    if not os.path.isfile(binary):
        sys.exit(f"code-order: {binary} not found: build it first (cargo build --release -p green-cli --bin green)")
    out = subprocess.run(["nm", "-S", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    found = collections.defaultdict(list)
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "tTwW":
            found[parts[3]].append((int(parts[0], 16), int(parts[1], 16)))
    return found


def check(a):
    names = [n for n in open(ORDER).read().split("\n") if n]
    have = symbols(a.check)
    spans = [s for n in names for s in have.get(n, [])]
    found = sum(1 for n in names if n in have)
    size = sum(s for _, s in spans)
    windows = {w for start, s in spans for w in range(start // WINDOW, (start + max(s, 1) - 1) // WINDOW + 1)}
    least = -(-size // WINDOW)
    print(f"code-order: {found} of {len(names)} functions of {os.path.relpath(ORDER, ROOT)} are in {a.check}; "
          f"their {size // 1024} KiB of code lie in {len(windows)} windows of 64 KiB (at least {least})")
    if found < LEAST_FOUND * len(names):
        sys.exit(f"code-order: under {LEAST_FOUND:.0%} of the listed functions are in the binary: the list is "
                 "stale; rebuild and run `python3 scripts/code-order.py --write --shared ../shared`")
    if len(windows) > MOST_SPREAD * least + 2:
        sys.exit("code-order: the listed functions are spread over the binary: the linker did not take "
                 "the order (crates/green-cli/build.rs passes it to LLD)")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--write", action="store_true", help="profile the runs and write the order (needs valgrind)")
    p.add_argument("--check", metavar="BINARY", help="check a built binary against the order")
    p.add_argument("--green", default=os.path.join(ROOT, "target", "release", "green"),
                   help="with --write: the release binary to profile")
    p.add_argument("--shared", default=os.path.join(ROOT, "..", "shared"), help="with --write: the shared data")
    a = p.parse_args()
    if a.write == bool(a.check):
        p.error("give exactly one of --write and --check BINARY")
    write(a) if a.write else check(a)


if __name__ == "__main__":
    main()
