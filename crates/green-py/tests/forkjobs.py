"""The fork scenarios of test_fork.py, run as a script in a process of its own.

    python forkjobs.py SCENARIO

The process first scores with every job (so the engine's threads exist, as in a user's
notebook), then forks workers in one of the ways pipelines do and has them score again:
``pool`` (multiprocessing's fork Pool), ``executor`` (ProcessPoolExecutor with fork),
``dataloader`` (worker processes fed batch indices through queues, as PyTorch's DataLoader
runs them), ``datasets`` (Hugging Face ``datasets.map(num_proc=2)``) and ``torch`` (a real
``torch.utils.data.DataLoader`` with fork workers). It prints ``{"parent": ..., "child": ...}``
as JSON; a child that hangs never prints, and the test's clock (only a hang reaches it) says so.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor

import green_gec as green

RNG = random.Random(37)
WORDS = ["a", "b", "the", "cat", "sat", "on", "mat", ".", "猫"]


def line() -> str:
    return " ".join(RNG.choice(WORDS) for _ in range(RNG.randint(1, 9)))


# Enough sentences that every parallel loop splits across the engine's threads.
SIZE = 300
SOURCES = [line() for _ in range(SIZE)]
REFERENCES = [[line() for _ in range(SIZE)], [line() for _ in range(SIZE)]]
HYPOTHESES = [line() for _ in range(SIZE)]
OTHER = [line() for _ in range(SIZE)]
BATCH = 50

GOLD = "S he go to school\nA 1 2|||V|||goes|||REQUIRED|||-NONE-|||0\nA 4 4|||P|||.|||REQUIRED|||-NONE-|||1\n\nS fine\n\n" * 40
M2_REF = "".join(green.errant_parallel(SOURCES, REFERENCES))
M2_HYP = "".join(green.errant_parallel(SOURCES, [HYPOTHESES]))
M2_OTHER = "".join(green.errant_parallel(SOURCES, [OTHER]))


def _m2_file() -> str:
    path = os.path.join(tempfile.mkdtemp(), "ref.m2")
    with open(path, "w", encoding="utf-8") as f:
        f.write(M2_REF)
    return path


def green_scores() -> list:
    scorer = green.Scorer("word", beta=[1.0])
    score = scorer.corpus_score(sources=SOURCES, references=REFERENCES, hypotheses=HYPOTHESES, n_bootstrap=50)
    paired = scorer.paired(sources=SOURCES, references=REFERENCES, systems=[HYPOTHESES, OTHER], reps=50)
    return [score.score, score.ci.low, paired["comparisons"][0]["result"]["p"]]


def green_files() -> float:
    directory = tempfile.mkdtemp()
    paths = []
    for name, lines in [("src", SOURCES), ("ref", REFERENCES[0]), ("hyp", HYPOTHESES)]:
        paths.append(os.path.join(directory, name))
        with open(paths[-1], "w", encoding="utf-8") as f:
            f.write("".join(x + "\n" for x in lines))
    scorer = green.Scorer("char", n=6)
    return scorer.score_files(source=paths[0], references=[paths[1]], systems=[paths[2]])["systems"][0]["corpus"][0]


def gleu() -> list:
    g = green.Gleu(iterations=20)
    a = g.stats(sources=SOURCES, references=REFERENCES, hypotheses=HYPOTHESES)
    b = g.stats(sources=SOURCES, references=REFERENCES, hypotheses=OTHER)
    return [g.corpus_score(sources=SOURCES, references=REFERENCES, hypotheses=HYPOTHESES).score, g.paired(a, b, reps=50)["p"]]


def maxmatch() -> list:
    m = green.MaxMatch.from_text(GOLD)
    hyps = ["he goes to school", "fine ."] * 40
    a, b = m.stats(hyps), m.stats(["he go to school .", "fine"] * 40)
    return [m.score(hyps).score, m.paired(a, b, reps=50)["p"]]


def errant() -> list:
    e = green.ErrantCompare.from_text(M2_REF)
    a, b = e.stats(text=M2_HYP), e.stats(text=M2_OTHER)
    return [e.fold(a).score, e.paired(a, b, reps=50)["p"]]


def cleme() -> list:
    c = green.Cleme.from_text(M2_REF)
    a, b = c.stats(text=M2_HYP), c.stats(text=M2_OTHER)
    return [c.fold(a).score, c.paired(a, b, reps=50)["p"]]


def maege() -> list:
    report = green.maege(_m2_file(), reps=1)
    return [row["standard"]["tau"] for row in report["rows"]]


def io() -> list:
    return green.io.read_references(_m2_file())["references"][0][:3]


JOBS = {f.__name__: f for f in [green_scores, green_files, gleu, maxmatch, errant, cleme, maege, io]}


def run(name: str) -> tuple:
    return name, JOBS[name]()


def batch_scores(start: int) -> list:
    """One batch's sentence scores, as a DataLoader worker's collate function would make them."""
    end = start + BATCH
    return SCORER.sentence_scores(sources=SOURCES[start:end], references=[r[start:end] for r in REFERENCES], hypotheses=HYPOTHESES[start:end])


SCORER = green.Scorer()


def dataloader_worker(indices: "multiprocessing.Queue", results: "multiprocessing.Queue") -> None:
    """PyTorch's worker loop, reduced: take a batch index, put its result, stop at None."""
    while True:
        start = indices.get()
        if start is None:
            return
        results.put((start, batch_scores(start)))


def main(scenario: str) -> None:
    fork = multiprocessing.get_context("fork")
    names = list(JOBS)
    if scenario in ("pool", "executor"):
        parent = dict(run(name) for name in names)
        if scenario == "pool":
            with fork.Pool(2) as pool:
                child = dict(pool.map(run, names))
        else:
            with ProcessPoolExecutor(2, mp_context=fork) as executor:
                child = dict(executor.map(run, names))
    else:
        starts = list(range(0, SIZE, BATCH))
        parent = [x for s in starts for x in batch_scores(s)]
        if scenario == "dataloader":
            indices, results = fork.Queue(), fork.Queue()
            workers = [fork.Process(target=dataloader_worker, args=(indices, results)) for _ in range(2)]
            for w in workers:
                w.start()
            for s in starts:
                indices.put(s)
            got = dict(results.get() for _ in starts)
            for w in workers:
                indices.put(None)
            for w in workers:
                w.join()
            child = [x for s in starts for x in got[s]]
        elif scenario == "datasets":
            import datasets

            rows = datasets.Dataset.from_dict({"start": starts})
            mapped = rows.map(lambda row: {"scores": batch_scores(row["start"])}, num_proc=2)
            child = [x for scores in mapped["scores"] for x in scores]
        elif scenario == "torch":
            import torch.utils.data

            loader = torch.utils.data.DataLoader(
                starts, batch_size=1, num_workers=2, multiprocessing_context="fork", collate_fn=lambda b: batch_scores(b[0])
            )
            child = [x for scores in loader for x in scores]
        else:
            raise SystemExit(f"unknown scenario {scenario}")
    print(json.dumps({"parent": parent, "child": child}))


if __name__ == "__main__":
    main(sys.argv[1])
