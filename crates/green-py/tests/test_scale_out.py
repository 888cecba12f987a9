"""Scale-out: a Scorer pickles (and rebuilds its tokenizer), and a corpus scored on Dask's
local process pool, partition by partition, gives the one-process numbers bit for bit."""

from __future__ import annotations

import importlib.util
import math
import pickle
import random
from pathlib import Path

import green_gec as green

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "dask_scale_out.py"


def example():
    spec = importlib.util.spec_from_file_location("dask_scale_out", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_scorer_pickles_with_its_settings():
    scorer = green.Scorer("char:nospace", n=3, beta=[0.5, math.inf], norm="nfkc+lower")
    back = pickle.loads(pickle.dumps(scorer))
    assert (back.spec, back.n, back.betas, back.norm) == (scorer.spec, scorer.n, scorer.betas, scorer.norm)
    assert back.tokenize("Ａ b Ｃ") == scorer.tokenize("Ａ b Ｃ") == ["a", "b", "c"]
    zh = green.Scorer("zh:nohmm", n=2)
    assert pickle.loads(pickle.dumps(zh)).signature(1) == zh.signature(1)


def test_dask_partitions_score_as_one_process():
    rng = random.Random(4)
    words = ["a", "b", "the", "cat", "sat", "on", "mat", "."]
    line = lambda: " ".join(rng.choice(words) for _ in range(rng.randint(0, 12)))  # noqa: E731
    size = 700
    sources = [line() for _ in range(size)]
    references = [[line() for _ in range(size)], [line() for _ in range(size)]]
    systems = [[line() for _ in range(size)] for _ in range(3)]
    scorer = green.Scorer("word", n=4, beta=[0.5, 2.0])
    report = example().score_on_dask(scorer, sources, references, systems, partitions=5)
    whole = scorer.evaluate(sources=sources, references=references, systems=systems)
    assert report["sentences"] == size
    for got, want in zip(report["systems"], whole["systems"]):
        assert got["corpus"] == want["corpus"]
        assert got["mean"] == want["mean"]
