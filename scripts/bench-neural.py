#!/usr/bin/env python3
"""green's model-based metrics side by side with their originals on PyTorch (CPU).

On CoNLL-2014's AMU output (source and hypotheses from ../shared/data), with random models of
the published shapes built here once (into --cache, never committed):

- SOME: three `BertForSequenceClassification` regressors of bert-base-cased's shape (12
  layers, 768 wide, 12 heads, 3,072 inner, 512 positions, 28,996 tokens), saved as
  `pytorch_model.bin` in `grammer/`, `fluency/` and `meaning/` as the authors' `gfm-models`
  is laid out; the original is kokeman/SOME's `some.py` (`scripts/some-oracle.py`);
- IMPARA: a quality estimator and a similarity estimator of the same shape (128 positions,
  as IMPARA's inputs are cut); the original is gec-metrics' `impara.py`
  (`scripts/impara-oracle.py --scores-only`);
- Scribendi: a GPT-2 of gpt2 (small)'s shape (12 layers, 768 wide, 50,257 tokens, 1,024
  positions) with a byte-level BPE trained on the corpus; the original is gec-metrics'
  `scribendi.py` (`scripts/scribendi-oracle.py --scores-only`).

The WordPiece vocabulary is BERT's special tokens, every printable ASCII character and its
`##` piece, the corpus's words and `[unusedN]` fillers up to 28,996: every corpus word is one
token, where bert-base-cased splits a few (green's inputs are a little shorter than with the
real vocabulary; the originals pad every SOME and IMPARA input to 128 tokens whatever it holds).

Each round runs the original (its own scoring code, `torch.set_num_threads(--threads)`) and
`green` (`RAYON_NUM_THREADS=--threads`, default batch sizes) one after the other, the order
swapped every round, and records each process's wall time, user+system CPU and peak RSS
(`wait4`), and the 1-minute load average when it started; then the largest difference of a
sentence score between the two. Times include loading the models and the tokenizer.

    python3 scripts/bench-neural.py --python /tmp/neuralv/bin/python --green target/release/green \\
        [--shared ../shared] [--mirrors /work/.mirror] [--cache /tmp/green-neural-bench] \\
        [--metrics some,impara,scribendi] [--rounds 1] [--lines N] [--threads 2] [--write | --prepare]

--python needs torch and transformers (and fuzzywuzzy, python-Levenshtein for Scribendi);
the originals' code is read from git repositories (--some-repo, --gec-metrics-repo: a
checkout or a bare clone of kokeman/SOME and gotutiyan/gec-metrics). With --write the table
replaces the block between `<!-- bench-neural:begin -->` and `<!-- bench-neural:end -->` in
docs/neural.md, headed by the date, commit, machine, threads and load.
"""
import argparse
import collections
import json
import os
import platform
import re
import statistics
import string
import subprocess
import sys
import time

from bench_docs import write_block

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BERT_VOCAB = 28996
GPT2_VOCAB = 50257

# Runs an original's oracle script in the venv's Python with torch's thread count set first.
RUNNER = (
    "import runpy, sys, torch; torch.set_num_threads(int(sys.argv[1])); "
    "sys.argv = sys.argv[2:]; runpy.run_path(sys.argv[0], run_name='__main__')"
)


def log(msg):
    print(f"bench-neural: {msg}", file=sys.stderr, flush=True)


def build_vocab(path, corpus_files):
    words = collections.Counter()
    for f in corpus_files:
        for line in open(f, encoding="utf-8"):
            words.update(re.findall(r"\w+|[^\w\s]", line))
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    vocab += [c for c in string.printable if not c.isspace()]
    vocab += ["##" + c for c in string.printable if not c.isspace()]
    seen = set(vocab)
    vocab += [w for w, _ in words.most_common() if w not in seen][: BERT_VOCAB - len(vocab)]
    vocab += [f"[unused{i}]" for i in range(BERT_VOCAB - len(vocab))]
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join(t + "\n" for t in vocab))


def build_models(a, cache, corpus_files):
    """The random models, once: (SOME dir, IMPARA dir, Scribendi dir)."""
    vocab = os.path.join(cache, "vocab.txt")
    if not os.path.exists(vocab):
        build_vocab(vocab, corpus_files)
    base = ["--hidden", "768", "--layers", "12", "--heads", "12", "--init", "0.02"]
    bert = base + ["--inter", "3072"]
    some, impara, scribendi = (os.path.join(cache, n) for n in ("some", "impara", "scribendi"))
    steps = [
        ("some", os.path.join(some, "meaning", "config.json"),
         ["some-tiny-models.py", some, "--vocab", vocab, "--bin", *bert]),
        ("impara", os.path.join(impara, "qe-trained", "config.json"),
         ["impara-tiny-models.py", vocab, impara, *bert]),
        ("scribendi", os.path.join(scribendi, "config.json"),
         ["scribendi-tiny-model.py", scribendi, "--text", corpus_files[0], "--text", corpus_files[1],
          "--vocab-size", str(GPT2_VOCAB), "--model-vocab", str(GPT2_VOCAB), *base]),
    ]
    for name, done, cmd in steps:
        if name in a.metrics and not os.path.exists(done):
            log(f"building the {name} models in {cache}")
            subprocess.run([a.python, os.path.join(HERE, cmd[0]), *cmd[1:]], check=True)
    return some, impara, scribendi


def checkout(repo, paths, dest):
    """The files `paths` of git repository `repo` (checkout or bare) at HEAD, under dest."""
    if not os.path.exists(os.path.join(dest, paths[0])):
        os.makedirs(dest, exist_ok=True)
        archive = subprocess.run(["git", "-C", repo, "archive", "HEAD", *paths], check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", dest], input=archive, check=True)
    return dest


def measure(cmd, out_path, env=None):
    """Runs cmd: wall seconds, user+system CPU seconds, peak RSS (MiB), load at the start."""
    load = os.getloadavg()[0]
    start = time.monotonic()
    with open(out_path, "w") as out, open(out_path + ".err", "w") as err:
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"bench-neural: {' '.join(cmd)} failed:\n{open(out_path + '.err').read()[-3000:]}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss": usage.ru_maxrss / 1024, "load": load}


def plans(a, models, src, hyp):
    """Per metric: (original's command, green's command, reader of each's sentence scores)."""
    some, impara, scribendi = models
    runner = [a.python, "-c", RUNNER, str(a.threads)]
    out = {}
    if "some" in a.metrics:
        some_py = os.path.join(checkout(a.some_repo, ["some.py"], os.path.join(a.cache, "SOME")), "some.py")
        out["some"] = (
            runner + [os.path.join(HERE, "some-oracle.py"), some_py, some, src, hyp, "--system-only"],
            [a.green, "some", "--models", some, "-s", src, "-c", hyp, "--format", "json"],
            lambda j: j["sentences"],
            lambda j: [s["some"] for s in j["systems"][0]["sentences"]],
        )
    if "impara" in a.metrics or "scribendi" in a.metrics:
        gm = checkout(a.gec_metrics_repo, ["src/gec_metrics"], os.path.join(a.cache, "gec-metrics"))
        gm_src = os.path.join(gm, "src")
    if "impara" in a.metrics:
        qe, se = os.path.join(impara, "qe"), os.path.join(impara, "se")
        out["impara"] = (
            runner + [os.path.join(HERE, "impara-oracle.py"), gm_src, qe, se, src, hyp, "--scores-only"],
            [a.green, "impara", "--qe", qe, "--se", se, "-s", src, "-c", hyp, "--format", "json"],
            lambda j: j["scores"],
            lambda j: [s["impara"] for s in j["systems"][0]["sentences"]],
        )
    if "scribendi" in a.metrics:
        out["scribendi"] = (
            runner + [os.path.join(HERE, "scribendi-oracle.py"), gm_src, scribendi, src, hyp, "--scores-only"],
            [a.green, "scribendi", "--model", scribendi, "-s", src, "-c", hyp, "--format", "json"],
            lambda j: j["scores"],
            lambda j: [s["score"] for s in j["systems"][0]["sentences"]],
        )
    return out


def fmt_time(s):
    return f"{s:.1f} s" if s < 600 else f"{s / 60:.1f} min"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--python", required=True, help="a Python with torch and transformers")
    ap.add_argument("--green", default=os.path.join(ROOT, "target", "release", "green"),
                    help="green built with --features neural")
    ap.add_argument("--shared", default=os.path.join(ROOT, "..", "shared"))
    ap.add_argument("--mirrors", default="/work/.mirror", help="where --some-repo and --gec-metrics-repo default to")
    ap.add_argument("--some-repo")
    ap.add_argument("--gec-metrics-repo")
    ap.add_argument("--cache", default="/tmp/green-neural-bench", help="models and outputs (made once)")
    ap.add_argument("--metrics", default="some", help="comma-separated: some, impara, scribendi")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--lines", type=int, help="only the first N sentences")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--write", action="store_true", help="write the table into docs/neural.md")
    ap.add_argument("--prepare", action="store_true", help="only build the models")
    a = ap.parse_args()
    a.metrics = [m for m in a.metrics.split(",") if m]
    if unknown := set(a.metrics) - {"some", "impara", "scribendi"}:
        sys.exit(f"bench-neural: unknown metric {', '.join(sorted(unknown))}")
    a.some_repo = a.some_repo or os.path.join(a.mirrors, "kokeman+SOME", "repo")
    a.gec_metrics_repo = a.gec_metrics_repo or os.path.join(a.mirrors, "gotutiyan+gec-metrics", "repo")
    a.cache = os.path.abspath(a.cache)
    os.makedirs(a.cache, exist_ok=True)

    conll = os.path.join(a.shared, "data", "conll14")
    src, hyp = os.path.join(conll, "source.txt"), os.path.join(conll, "systems", "AMU.txt")
    for f in (src, hyp):
        if not os.path.exists(f):
            sys.exit(f"bench-neural: {f} not found; pass --shared (the directory holding data/conll14)")
    models = build_models(a, a.cache, [src, hyp])
    if a.prepare:
        return
    work = os.path.join(a.cache, "runs")
    os.makedirs(work, exist_ok=True)
    n = sum(1 for _ in open(src, encoding="utf-8"))
    if a.lines:
        n = min(n, a.lines)
        for name in ("src", "hyp"):
            path = src if name == "src" else hyp
            out = os.path.join(work, f"{name}-{n}.txt")
            with open(out, "w", encoding="utf-8") as f:
                f.writelines(open(path, encoding="utf-8").readlines()[:n])
            src, hyp = (out, hyp) if name == "src" else (src, out)

    versions = subprocess.run(
        [a.python, "-c", "import torch, transformers; print(torch.__version__, transformers.__version__)"],
        capture_output=True, text=True, check=True).stdout.split()
    green_env = dict(os.environ, RAYON_NUM_THREADS=str(a.threads))
    results = {}
    for metric, (theirs, ours, read_theirs, read_ours) in plans(a, models, src, hyp).items():
        runs = {"original": [], "green": []}
        diff = 0.0
        for r in range(a.rounds):
            order = [("original", theirs, None), ("green", ours, green_env)]
            for side, cmd, env in order if r % 2 == 0 else order[::-1]:
                path = os.path.join(work, f"{metric}-{side}.json")
                m = measure(cmd, path, env)
                runs[side].append(m)
                log(f"{metric} round {r + 1} {side}: {m['wall']:.1f} s wall, {m['cpu']:.1f} s CPU, "
                    f"{m['rss']:.0f} MiB, load {m['load']:.2f}")
            a_scores = read_theirs(json.load(open(os.path.join(work, f"{metric}-original.json"))))
            b_scores = read_ours(json.load(open(os.path.join(work, f"{metric}-green.json"))))
            if len(a_scores) != len(b_scores):
                sys.exit(f"bench-neural: {metric}: {len(a_scores)} sentence scores from the original, {len(b_scores)} from green")
            diff = max([diff] + [abs(x - y) for x, y in zip(a_scores, b_scores)])
        results[metric] = (runs, diff)

    table = report(a, n, versions, results)
    print(table)
    if a.write:
        log(f"wrote the table into {write_block('neural.md', 'bench-neural', table)}")


def report(a, n, versions, results):
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    loads = [m["load"] for runs, _ in results.values() for side in runs.values() for m in side]
    names = {"some": "SOME", "impara": "IMPARA", "scribendi": "Scribendi"}
    lines = [
        f"Produced by `python3 scripts/bench-neural.py --write` on {time.strftime('%Y-%m-%d')} at commit "
        f"`{commit}`, release build; PyTorch {versions[0]}, transformers {versions[1]}. Machine: "
        f"{os.cpu_count()} cores, {cpu}, {platform.system()} {platform.release()}; {a.threads} threads "
        f"each side; 1-minute load average {min(loads):.2f} to {max(loads):.2f} at the starts of the runs. "
        f"CoNLL-2014 AMU, {n:,} sentences; {a.rounds} alternating round{'s' if a.rounds > 1 else ''}, "
        "median; whole process, loading included.",
        "",
        "| metric | run | wall | CPU (user+sys) | CPU / wall | peak RSS | original / green (wall) | largest difference of a sentence score |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for metric, (runs, diff) in results.items():
        med = {side: {k: statistics.median(m[k] for m in ms) for k in ("wall", "cpu", "rss")}
               for side, ms in runs.items()}
        ratio = med["original"]["wall"] / med["green"]["wall"]
        for side, label in (("original", "original, PyTorch CPU"), ("green", "green")):
            m = med[side]
            last = (f"{ratio:.1f}×", f"{diff:.1e}") if side == "green" else ("", "")
            lines.append(f"| {names[metric]} | {label} | {fmt_time(m['wall'])} | {fmt_time(m['cpu'])} | "
                         f"{m['cpu'] / m['wall']:.2f} | {m['rss']:,.0f} MiB | {last[0]} | {last[1]} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
