"""Bad input and settings raise clear Python exceptions, never crash."""

from __future__ import annotations

import pytest

import green_gec as green

SRC = ["a b c", "d e"]
REF = ["a b", "d e f"]
HYP = ["a b c", "d e f"]


def raises(exc, match, fn, *args, **kwargs):
    with pytest.raises(exc, match=match) as info:
        fn(*args, **kwargs)
    return str(info.value)


def test_green_error_is_a_value_error():
    assert issubclass(green.GreenError, ValueError)


def test_bad_settings():
    raises(green.GreenError, r"^unknown tokenizer 'klingon'; known: word, char", green.Scorer, "klingon")
    raises(green.GreenError, r"^unknown normalisation 'nfd'", green.Scorer, norm="nfd")
    raises(green.GreenError, r"^n must be between 1 and 100 \(got 0\)$", green.Scorer, n=0)
    raises(green.GreenError, r"^n must be between 1 and 100 \(got -3\)$", green.Scorer, n=-3)
    raises(green.GreenError, r"^n must be between 1 and 100 \(got 1099511627776\)$", green.Scorer, n=2**40)
    raises(TypeError, r"^n must be an integer \(got str\)$", green.Scorer, n="4")
    raises(green.GreenError, r"^beta must be a non-negative number or inf \(got -1\)$", green.Scorer, beta=-1.0)
    raises(green.GreenError, r"^give at least one beta$", green.Scorer, beta=[])
    raises(green.GreenError, r"^unknown tokenizer option 'colour'; known: norm", green.Scorer, options={"colour": "red"})
    raises(TypeError, r"beta must be a number or a list of numbers", green.Scorer, beta="2")
    raises(green.GreenError, r"^unknown level 'system'", green.Scorer().signature, 1, "system")


def score(sources=SRC, references=None, hypotheses=HYP, **kwargs):
    return green.corpus_score(sources=sources, references=[REF] if references is None else references, hypotheses=hypotheses, **kwargs)


def test_length_mismatches():
    raises(green.GreenError, r"^references\[0\] has 1 sentences but sources has 2$", score, references=[REF[:1]])
    raises(green.GreenError, r"^hypotheses\[0\] has 3 sentences but sources has 2$", score, hypotheses=HYP + ["x"])


def test_wrong_shapes():
    raises(TypeError, r"^sources must be a list of strings \(one per sentence\), not a str$", score, sources="a b")
    raises(TypeError, r"^references must be a list of reference sets.*not a str$", score, references="a b")
    raises(TypeError, r"^references must be a list of reference sets.*for one reference set write references=\[lines\]", score, references=REF)
    raises(TypeError, r"^hypotheses must be a list of strings", score, hypotheses=[1, 2])
    raises(TypeError, r"^systems must be a list of hypothesis lists", green.evaluate, sources=SRC, references=[REF], systems=HYP)


def test_sentence_without_any_reference():
    message = raises(green.GreenError, r"^sentence 2 \(index 1\) has no reference", score, references=[["a b", None]])
    assert "at least one reference that is not None" in message


def test_no_references_at_all():
    raises(green.GreenError, r"^sentence 1 \(index 0\) has no reference", score, references=[])


def test_several_betas_need_a_choice():
    scorer = green.Scorer(beta=[0.5, 2.0])
    data = dict(sources=SRC, references=[REF], hypotheses=HYP)
    raises(green.GreenError, r"^this Scorer has 2 betas \(0.5, 2\); pass beta=", scorer.corpus_score, **data)
    assert scorer.corpus_score(**data, beta=2.0) == green.corpus_score(**data)
