"""A Python callable as the tokenizer: the built-in numbers when it imitates one, its name and
version in the signature, clear errors, pickling, and many threads taking the GIL in turn."""

from __future__ import annotations

import pickle
import random

import pytest

import green_gec as green


def split(text):
    return text.split()


class Chars:
    name = "my-chars"
    version = "1.2"

    def __call__(self, text):
        return list(text)


def corpus(size=3000, seed=8):
    rng = random.Random(seed)
    words = ["a", "b", "the", "cat", "sat", "on", "mat", ".", "猫", "é"]
    line = lambda: " ".join(rng.choice(words) for _ in range(rng.randint(0, 12)))  # noqa: E731
    return [line() for _ in range(size)], [[line() for _ in range(size)]], [line() for _ in range(size)]


def test_callables_give_the_builtin_numbers():
    sources, refs, hyps = corpus()
    for func, spec, n in [(split, "word", 4), (Chars(), "char", 6)]:
        mine, builtin = green.Scorer(func, n=n), green.Scorer(spec, n=n)
        data = dict(sources=sources, references=refs, hypotheses=hyps)
        assert mine.corpus_score(**data).score == builtin.corpus_score(**data).score
        assert mine.mean_score(**data).score == builtin.mean_score(**data).score
    assert green.Scorer(split).tokenizer == "py:test_callable.split"
    assert "tok:py:my-chars@1.2|" in green.Scorer(Chars()).signature(1)
    assert green.Scorer(Chars(), norm="lower").tokenize("AB") == ["a", "b"]


def test_callable_errors_are_clear():
    data = dict(sources=["a b"], references=[["a b"]], hypotheses=["a b"])

    def boom(text):
        raise RuntimeError("no model loaded")

    with pytest.raises(green.GreenError, match="sentence 1.*raised RuntimeError: no model loaded"):
        green.Scorer(boom).corpus_score(**data)
    with pytest.raises(green.GreenError, match="returned a str"):
        green.Scorer(lambda t: t).corpus_score(**data)
    with pytest.raises(green.GreenError, match="type int"):
        green.Scorer(lambda t: [1, 2]).corpus_score(**data)
    with pytest.raises(TypeError, match="spec .* or a callable"):
        green.Scorer(42)
    with pytest.raises(green.GreenError, match="options apply to built-in"):
        green.Scorer(split, options={"plugin-config": "x"})


def test_callable_scorer_pickles():
    sources, refs, hyps = corpus(200)
    scorer = green.Scorer(Chars(), n=3, beta=[0.5, 2.0])
    back = pickle.loads(pickle.dumps(scorer))
    assert back.tokenizer == scorer.tokenizer
    data = dict(sources=sources, references=refs, systems=[hyps])
    assert back.evaluate(**data)["systems"] == scorer.evaluate(**data)["systems"]
