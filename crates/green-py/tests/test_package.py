"""The package as pipelines use it: every class pickles (Ray, Dask, Spark closures), the
submodules are there after ``import green_gec``, the M2 classes take paths in every form and
text only by name, statistics of other settings do not fold, errors name the argument, and a
tokenizer's KeyboardInterrupt stays one."""

from __future__ import annotations

import os
import pathlib
import pickle
import subprocess
import sys

import pytest

import green_gec as green

SRC = ["he go to school", "fine"]
REFS = [["he goes to school", "fine ."]]
M2 = "S he go to school\nA 1 2|||R:VERB|||goes|||REQUIRED|||-NONE-|||0\n\nS fine\nA 1 1|||M:PUNCT|||.|||REQUIRED|||-NONE-|||0\n"
HYP_M2 = "S he go to school\nA 1 2|||R:VERB|||goes|||REQUIRED|||-NONE-|||0\n\nS fine\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n"


def test_every_class_pickles_and_scores_the_same(tmp_path):
    gold = tmp_path / "gold.m2"
    gold.write_text(M2, encoding="utf-8")
    data = dict(sources=SRC, references=REFS, hypotheses=["he goes to school", "fine"])
    cases = [
        (green.Scorer("char", n=3, beta=[0.5]), lambda m: m.corpus_score(**data)),
        (green.Gleu(n=2, iterations=10), lambda m: m.corpus_score(**data)),
        (green.MaxMatch(gold, beta=1.0), lambda m: m.score(["he goes to school", "fine"])),
        (green.ErrantCompare(gold), lambda m: m.score(text=HYP_M2)),
        (green.Cleme(str(gold)), lambda m: m.score(text=HYP_M2)),
    ]
    classes = {type(obj) for obj, _ in cases}
    assert classes == {green.Scorer, green.Gleu, green.MaxMatch, green.ErrantCompare, green.Cleme}
    for obj, score in cases:
        back = pickle.loads(pickle.dumps(obj))
        assert type(back) is type(obj) and score(back) == score(obj), type(obj).__name__
    # The M2 text travels with the object: a worker without the file can still score.
    m = pickle.dumps(green.MaxMatch(gold))
    gold.unlink()
    assert pickle.loads(m).score(["he goes to school", "fine ."]).score == 100.0


def test_submodules_are_attributes_of_the_package():
    code = "import green_gec as green; print(green.io.read_lines.__name__, green.metric.Green.__name__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["read_lines", "Green"]


def test_m2_classes_take_paths_in_every_form_and_text_by_name(tmp_path):
    gold = tmp_path / "gold.m2"
    gold.write_text(M2, encoding="utf-8")
    hyps = ["he goes to school", "fine ."]
    scores = {green.MaxMatch(p).score(hyps).score for p in [gold, str(gold), os.fsencode(gold).decode(), pathlib.PurePath(gold)]}
    scores |= {green.MaxMatch(text=M2).score(hyps).score, green.MaxMatch.from_text(M2).score(hyps).score}
    assert scores == {100.0}
    for cls in [green.MaxMatch, green.ErrantCompare, green.Cleme]:
        with pytest.raises(green.GreenError, match=r"no file named 'S he go to school'.*looks like M2 text; pass it as text="):
            cls(M2)
        with pytest.raises(TypeError, match="give .* as a path, or its M2 text as text="):
            cls()
        with pytest.raises(TypeError, match="give .* as a path, or its M2 text as text="):
            cls(gold, text=M2)
    e = green.ErrantCompare(gold)
    assert e.score(gold).score == 100.0 and e.score(text=M2) == e.score(str(gold))
    with pytest.raises(green.GreenError, match="cannot read"):
        e.score(tmp_path / "missing.m2")


def test_fold_refuses_statistics_of_other_settings():
    scorer = green.Scorer(beta=2.0)
    stats = scorer.stats(sources=SRC, references=REFS, systems=[SRC])
    with pytest.raises(green.GreenError, match=r"counted at beta 2, not at beta 0.5: fold them with beta=\[2\]"):
        green.Scorer(beta=0.5).fold(stats)
    with pytest.raises(green.GreenError, match="not at beta 2,inf"):
        green.Scorer(beta=[2.0, float("inf")]).fold(stats)
    assert green.Scorer(beta=0.5).fold(stats, beta=2.0) == scorer.fold(stats)
    several = green.Scorer(beta=[1.0, 2.0])
    assert several.fold(several.stats(sources=SRC, references=REFS, systems=[SRC]))["betas"] == [1.0, 2.0]


@pytest.mark.parametrize("call,message", [
    (lambda: green.Scorer(n=-1), r"^n must be between 1 and 100 \(got -1\)$"),
    (lambda: green.Scorer(n=2**70), r"^n must be between 1 and 100 \(got 1180591620717411303424\)$"),
    (lambda: green.Scorer().signature(-2), r"^refs must be between 0 and \d+ \(got -2\)$"),
    (lambda: green.Scorer().score_rows([], systems=-1), r"^systems must be between 1 and \d+ \(got -1\)$"),
    (lambda: green.Scorer().score_files(source="s", references=["r"], systems=["h"], start=-5), r"^start must be between 0 and \d+ \(got -5\)$"),
    (lambda: green.Scorer().score_files(source="s", references=["r"], systems=["h"], stop=2**64), r"^stop must be between 0 and \d+ \(got 18446744073709551616\)$"),
    (lambda: green.corpus_score(sources=SRC, references=REFS, hypotheses=SRC, n_bootstrap=0), r"^n_bootstrap must be between 1 and 1000000 \(got 0\)$"),
    (lambda: green.Gleu(iterations=-1), r"^iterations must be between 1 and 100000 \(got -1\)$"),
    (lambda: green.Gleu(n=2**64), r"^n must be between 1 and 100 \(got 18446744073709551616\)$"),
    (lambda: green.Cleme(text=M2, merge_distance=-1), r"^merge_distance must be between 0 and \d+ \(got -1\)$"),
    (lambda: green.MaxMatch(text=M2, max_unchanged_words=2**80), r"^max_unchanged_words must be between -\d+ and \d+ \(got \d+\)$"),
    (lambda: green.ErrantCompare(text=M2).score(text=HYP_M2, cat=0), r"^cat must be between 1 and 3 \(got 0\)$"),
    (lambda: green.Scorer().paired(sources=SRC, references=REFS, systems=[SRC, SRC], confidence=1.5), r"^confidence must be between 0 and 1"),
    (lambda: green.maege("x.m2", reps=0), r"^reps must be between 1 and 1000 \(got 0\)$"),
    (lambda: green.meta(data=".", ts_runs=-3), r"^ts_runs must be between 1 and 100000 \(got -3\)$"),
])
def test_errors_name_the_argument(call, message):
    with pytest.raises(green.GreenError, match=message):
        call()


def test_wrong_types_name_the_argument():
    with pytest.raises(TypeError, match=r"^reps must be an integer \(got str\)$"):
        green.Gleu().paired([], [], reps="10")
    with pytest.raises(TypeError, match=r"^references must be a list of reference sets"):
        green.Gleu().corpus_score(sources=SRC, references="fine .", hypotheses=SRC)
    with pytest.raises(TypeError, match=r"^references must be a list of this sentence's references, not a str$"):
        green.sentence_score(hypothesis="a", references="a", source="a")
    with pytest.raises(TypeError, match=r"^beta must be a number"):
        green.Scorer().corpus_score(sources=SRC, references=REFS, hypotheses=SRC, beta="2")


@pytest.mark.parametrize("stop", [KeyboardInterrupt, SystemExit])
def test_a_tokenizers_interrupt_stays_an_interrupt(stop):
    def tokenize(text):
        raise stop()

    scorer = green.Scorer(tokenize)
    data = dict(sources=SRC * 3000, references=[REFS[0] * 3000], hypotheses=SRC * 3000)
    for call in [
        lambda: scorer.corpus_score(**data),
        lambda: scorer.evaluate(sources=data["sources"], references=data["references"], systems=[SRC * 3000]),
        lambda: scorer.corpus_score(**data, n_bootstrap=10),
        lambda: scorer.sentence_score(hypothesis="a", references=["a"], source="a"),
        lambda: scorer.tokenize("a b"),
        lambda: scorer.score_rows([("a", ["a"], ["a"])]),
    ]:
        with pytest.raises(stop):
            call()
    # An ordinary exception still says which sentence and what failed.
    with pytest.raises(green.GreenError, match="raised ValueError"):
        green.Scorer(lambda t: int(t)).corpus_score(**data)
