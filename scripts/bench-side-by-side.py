#!/usr/bin/env python3
"""Side-by-side speed of green, the reference Python green and the read-and-count floor.

Every row runs its commands in alternation (round after round), so all of them see the same
machine state, and reports median whole-process wall times and ratios. `ref / green` is how
much faster green is than the reference, from green's runs alternated with the reference's:
five of green's after each of the reference's, as one 10 ms run varies by half on a shared
machine, and the median over rounds of the reference's run over the median of green's five.
`green / floor` is what GREEN costs above reading the files and counting their tokens (the
floor is crates/green-cli/examples/floor.rs): three times the rounds, and the median of each
round's ratio, as both runs take a few milliseconds. Rows without a reference (Chinese
words, TrueSkill) give green's time against the issue's budget. Peak memory rows use /usr/bin/time.

The reference is the authors' package (github.com/shotakoyama/green), installed into a
virtual environment by scripts/fuzz-reference.py; nothing of it is vendored:

    python3 scripts/bench-side-by-side.py --shared ../shared --reference-src PATH/TO/green
    python3 scripts/bench-side-by-side.py --shared ../shared --reference-venv /tmp/green-ref

Before timing, each reference row's output is compared with green's (byte for byte).
"""

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def wall(cmd, cwd):
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def alternate(cmds, cwd, rounds, warmup=2, repeat=None, samples=False):
    """Median wall seconds of each command, run in alternation; `repeat[i]` runs of command i
    per round (default one), so a fast command gets as many samples as the machine's noise
    needs while a slow one beside it runs a few times only. With `samples`, every run's
    seconds too, per command in run order."""
    repeat = repeat or [1] * len(cmds)
    for _ in range(warmup):
        for c in cmds:
            wall(c, cwd)
    times = [[] for _ in cmds]
    for _ in range(rounds):
        for i, c in enumerate(cmds):
            for _ in range(repeat[i]):
                times[i].append(wall(c, cwd))
    medians = [statistics.median(t) for t in times]
    return (medians, times) if samples else medians


def paired_ratio(a, b):
    """Median over rounds of a's run over b's run in the same round: the machine's slow and
    fast phases touch both runs of a round alike, so this varies less than a ratio of
    medians when one command takes a few milliseconds."""
    return statistics.median(x / y for x, y in zip(a, b))


def peak_mib(cmd, cwd):
    out = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, cwd=cwd, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, check=True)
    return int(out.stderr.strip().splitlines()[-1]) / 1024


def ms(seconds):
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", default=os.path.join(ROOT, "..", "shared"))
    ap.add_argument("--reference-venv", help="a venv with the reference installed")
    ap.add_argument("--reference-src", help="install the reference from this checkout into a temporary venv")
    ap.add_argument("--rounds", type=int, default=15,
                    help="runs of each command (reference rows: a third; floor rows: three times)")
    a = ap.parse_args()
    # Everything the run writes (a reference venv, the memory runs' inputs) goes here, and
    # is removed however the run ends.
    with tempfile.TemporaryDirectory(prefix="green-bench-") as scratch:
        run(a, scratch)


def run(a, scratch):
    data = os.path.join(os.path.abspath(a.shared), "data")
    if not os.path.isdir(data):
        sys.exit(f"bench-side-by-side: {data} not found; pass --shared")

    subprocess.run(["cargo", "build", "--release", "--locked", "-q", "-p", "green-cli", "--bin", "green",
                    "--example", "floor"], cwd=ROOT, check=True)
    green = os.path.join(ROOT, "target", "release", "green")
    floor = os.path.join(ROOT, "target", "release", "examples", "floor")

    venv = a.reference_venv
    if venv is None and a.reference_src:
        venv = os.path.join(scratch, "venv")
        subprocess.run([sys.executable, os.path.join(HERE, "fuzz-reference.py"), "--install", a.reference_src,
                        "--venv", venv, "--cases", "0", "--ours", os.path.join(ROOT, "target", "release")],
                       check=True)
    reference = os.path.join(venv, "bin", "green") if venv else None
    if reference and not os.path.exists(reference):
        sys.exit(f"bench-side-by-side: no reference in {venv}")

    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    print(f"Machine: {os.cpu_count()} cores, {cpu}, {platform.system()} {platform.release()}; "
          f"{a.rounds} alternating rounds (reference rows {max(3, a.rounds // 3)}, floor rows "
          f"{3 * a.rounds}), median wall, whole process.\n")
    print("| run | green | reference | ref / green | floor | green / floor |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")

    conll = os.path.join(data, "conll14")
    systems = sorted(os.listdir(os.path.join(conll, "systems")))
    one = ["-s", "source.txt", "-r", "ref0.txt", "ref1.txt", "-c", "systems/AMU.txt", "-b", "2"]
    every = ["-s", "source.txt", "-r", "ref0.txt", "ref1.txt", "-c"] + [f"systems/{s}" for s in systems] + ["-b", "2"]
    files_one = ["source.txt", "ref0.txt", "ref1.txt", "systems/AMU.txt"]
    files_every = ["source.txt", "ref0.txt", "ref1.txt"] + [f"systems/{s}" for s in systems]
    rows = [
        ("CoNLL-14 AMU, word N=4", one + ["-t", "word", "-n", "4"], [floor, "word"] + files_one),
        ("CoNLL-14 AMU, char N=6", one + ["-t", "char", "-n", "6"], [floor, "char"] + files_one),
        (f"CoNLL-14, {len(systems)} systems, word N=4", every + ["-t", "word", "-n", "4"], [floor, "word"] + files_every),
    ]
    for label, args, floor_cmd in rows:
        ours = [green] + args
        if reference:
            theirs = [reference] + args
            got = [subprocess.run(c, cwd=conll, capture_output=True, check=True).stdout for c in (ours, theirs)]
            if got[0] != got[1]:
                sys.exit(f"bench-side-by-side: {label}: green and the reference print different scores")
        (g, f), (gs, fs) = alternate([ours, floor_cmd], conll, 3 * a.rounds, samples=True)
        over_floor = paired_ratio(gs, fs)
        if reference:
            (r, _), (rs, g2s) = alternate([theirs, ours], conll, max(3, a.rounds // 3), warmup=1,
                                          repeat=[1, 5], samples=True)
            # Each reference run against the median of green's five runs of its round.
            rounds = [statistics.median(g2s[k:k + 5]) for k in range(0, len(g2s), 5)]
            print(f"| {label} | {ms(g)} | {ms(r)} | {paired_ratio(rs, rounds):.0f}× | {ms(f)} | "
                  f"{over_floor:.1f}× |")
        else:
            print(f"| {label} | {ms(g)} | (no reference) | | {ms(f)} | {over_floor:.1f}× |")

    mucgec = os.path.join(data, "zh", "mucgec", "MuCGEC_dev.txt")
    first = os.path.join(scratch, "mucgec-first.txt")
    with open(first, "w", encoding="utf-8") as out:
        for line in open(mucgec, encoding="utf-8"):
            out.write(line.rstrip("\n").split("\t")[2] + "\n")
    zh = [green, "-r", mucgec, "--ref-format", "para", "-c", first, "-b", "2"]
    g, c = alternate([zh + ["-t", "zh"], zh + ["-t", "zh:char"]], data, a.rounds)
    print(f"| MuCGEC dev, jieba words (`-t zh`; budget 30 ms) | {ms(g)} | | | `zh:char` {ms(c)} | |")

    ts = [green, "meta", "-D", "gjg15", "seeda", "-t", "word", "--human", "ts", "--ts-runs", "1000"]
    (t,) = alternate([ts], os.path.dirname(data), 3, warmup=0)
    print(f"| TrueSkill, 1,000 runs, GJG15 + SEEDA (budget 15 s) | {ms(t)} | | | | |")

    print("\n| memory | peak RSS |")
    print("| --- | ---: |")
    work = os.path.join(scratch, "memory")
    os.mkdir(work)
    rng = random.Random(5)
    vocab = [f"w{i}" for i in range(5000)]
    long_lines = [" ".join(rng.choice(vocab) for _ in range(1000)) for _ in range(5000)]
    for name in ["source", "ref", "hyp"]:
        with open(os.path.join(work, f"long-{name}.txt"), "w") as f:
            f.write("".join(l + "\n" for l in long_lines))
    print(f"| 5,000 lines of 1,000 tokens (source, ref, hyp), word N=4 (budget 48 MiB) | "
          f"{peak_mib([green, '-s', 'long-source.txt', '-r', 'long-ref.txt', '-c', 'long-hyp.txt'], work):.0f} MiB |")
    subprocess.run([sys.executable, os.path.join(HERE, "gen_corpus.py"), "100000", work], check=True,
                   stdout=subprocess.DEVNULL)
    refs = ["ref0.txt" if k % 2 == 0 else "ref1.txt" for k in range(10)]
    print(f"| synthetic 100,000 lines with 10 references, word N=4 (budget 48 MiB) | "
          f"{peak_mib([green, '-s', 'source.txt', '-r'] + refs + ['-c', 'hyp.txt'], work):.0f} MiB |")

if __name__ == "__main__":
    main()
