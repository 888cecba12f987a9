"""GREEN statistics: shards counted apart merge into exactly one pass, and travel as JSON or pickle."""

from __future__ import annotations

import json
import math
import pickle
import random

import pytest

import green_gec as green

WORDS = ["a", "b", "the", "cat", "sat", ".", "é", "猫"]


def corpus(seed, size=60):
    rng = random.Random(seed)
    line = lambda: " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 9)))  # noqa: E731
    sources = [line() for _ in range(size)]
    refs = [[line() for _ in range(size)], [line() if rng.random() < 0.7 else None for _ in range(size)]]
    systems = [[line() for _ in range(size)] for _ in range(2)]
    return sources, refs, systems


@pytest.mark.parametrize("seed", range(8))
def test_shards_merge_into_one_pass(seed):
    sources, refs, systems = corpus(seed)
    scorer = green.Scorer("word", n=4, beta=[0.5, 2.0, math.inf])
    whole = scorer.evaluate(sources=sources, references=refs, systems=systems)
    rng = random.Random(seed)
    cuts = sorted({0, len(sources), *(rng.randrange(len(sources)) for _ in range(rng.randint(0, 4)))})
    shards = []
    for lo, hi in zip(cuts, cuts[1:]):
        part = scorer.stats(sources=sources[lo:hi], references=[r[lo:hi] for r in refs], systems=[s[lo:hi] for s in systems])
        # Shards travel between processes as JSON or pickle.
        part = pickle.loads(pickle.dumps(json.loads(json.dumps(part))))
        shards.append(part)
    report = scorer.fold(scorer.merge(*shards))
    assert report["sentences"] == len(sources)
    for got, want in zip(report["systems"], whole["systems"]):
        assert got["corpus"] == want["corpus"]
        assert got["mean"] == want["mean"]
        assert got["orders"] == want["orders"]
        assert "sentence" not in got
    assert report["signature"] == whole["signature"]


def test_fold_of_one_shard_is_corpus_score():
    sources, refs, systems = corpus(99)
    scorer = green.Scorer("char", n=6, beta=2.0)
    report = scorer.fold(scorer.stats(sources=sources, references=refs, systems=systems[:1]))
    data = dict(sources=sources, references=refs, hypotheses=systems[0])
    assert 100 * report["systems"][0]["corpus"][0] == scorer.corpus_score(**data).score
    assert 100 * report["systems"][0]["mean"][0] == scorer.mean_score(**data).score


def test_statistics_of_other_settings_are_refused():
    sources, refs, systems = corpus(1, 5)
    word = green.Scorer("word", n=4)
    stats = word.stats(sources=sources, references=refs, systems=systems)
    with pytest.raises(green.GreenError, match="tokenizer"):
        green.Scorer("char", n=4).fold(stats)
    with pytest.raises(green.GreenError, match="N=4"):
        green.Scorer("word", n=3).merge(stats, stats)
    with pytest.raises(green.GreenError, match="cannot merge"):
        word.merge(stats, word.stats(sources=sources, references=refs, systems=systems[:1]))
    damaged = dict(stats, statistics=dict(stats["statistics"], sentences=3))
    with pytest.raises(green.GreenError, match="damaged"):
        word.fold(damaged)
    with pytest.raises(green.GreenError, match="at least one"):
        word.merge()
