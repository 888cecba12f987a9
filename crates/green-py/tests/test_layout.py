"""One reference layout and data by keyword (issue 37): ``references`` is sacrebleu's reference
streams everywhere (one list per reference set), ``references_per_sentence`` the other layout
by name; the other layout given as ``references`` is refused, never silently transposed; and
positional data, where sources and hypotheses could be swapped, is refused with the call to
write instead."""

from __future__ import annotations

import pytest

import green_gec as green
from green_gec.metric import Green

# Two sentences with two references each: the shape alone cannot tell the layouts apart.
SRC = ["He go to school .", "This are pens ."]
PER_SENTENCE = [["He goes to school .", "He went to school ."], ["These are pens .", "This is a pen ."]]
STREAMS = [[PER_SENTENCE[0][0], PER_SENTENCE[1][0]], [PER_SENTENCE[0][1], PER_SENTENCE[1][1]]]
HYP = ["He goes to school .", "These are pens ."]


def test_both_layouts_by_name_give_one_number():
    scorer = green.Scorer()
    by_streams = scorer.sentence_scores(sources=SRC, references=STREAMS, hypotheses=HYP)
    by_sentence = scorer.sentence_scores(sources=SRC, references_per_sentence=PER_SENTENCE, hypotheses=HYP)
    assert by_streams == by_sentence == [1.0, 1.0]
    gleu = green.Gleu()
    assert gleu.sentence_scores(sources=SRC, references=STREAMS, hypotheses=HYP) == gleu.sentence_scores(
        sources=SRC, references_per_sentence=PER_SENTENCE, hypotheses=HYP
    )


@pytest.mark.parametrize("call", [
    lambda refs: green.Scorer().sentence_scores(sources=SRC, references=refs, hypotheses=HYP),
    lambda refs: green.corpus_score(sources=SRC, references=refs, hypotheses=HYP),
    lambda refs: green.evaluate(sources=SRC, references=refs, systems=[HYP]),
    lambda refs: green.Scorer().stats(sources=SRC, references=refs, systems=[HYP]),
    lambda refs: green.Gleu().corpus_score(sources=SRC, references=refs, hypotheses=HYP),
    lambda refs: Green().update(sources=SRC, references=refs, hypotheses=HYP),
])
def test_per_sentence_lists_given_as_streams_are_refused(call):
    """The bug of the issue: [1.0, 0.78] instead of [1.0, 1.0], silently."""
    with pytest.raises(green.GreenError, match="fits its source better read as one list per sentence"):
        call(PER_SENTENCE)
    call(STREAMS)


def test_other_shapes_of_the_wrong_layout_are_refused():
    ragged = [["He goes to school ."], ["These are pens .", "This is a pen ."]]
    with pytest.raises(green.GreenError, match="looks like one list per sentence.*references_per_sentence="):
        green.corpus_score(sources=SRC, references=ragged, hypotheses=HYP)
    with pytest.raises(TypeError, match="for one reference set write references=\\[lines\\]"):
        green.corpus_score(sources=SRC, references=HYP, hypotheses=HYP)
    with pytest.raises(TypeError, match="not a str"):
        green.corpus_score(sources=SRC, references="He goes .", hypotheses=HYP)
    with pytest.raises(TypeError, match="not both"):
        green.corpus_score(sources=SRC, references=STREAMS, references_per_sentence=PER_SENTENCE, hypotheses=HYP)
    with pytest.raises(green.GreenError, match="references_per_sentence has 1 lists but sources has 2"):
        green.corpus_score(sources=SRC, references_per_sentence=PER_SENTENCE[:1], hypotheses=HYP)


def test_readers_give_the_same_layout(tmp_path):
    m2 = tmp_path / "x.m2"
    m2.write_text("S a b\nA 0 1|||R|||c|||REQUIRED|||-NONE-|||0\nA 0 1|||R|||d|||REQUIRED|||-NONE-|||1\n\n"
                  "S e f\nA 1 2|||R|||g|||REQUIRED|||-NONE-|||0\nA 1 2|||R|||h|||REQUIRED|||-NONE-|||1\n", encoding="utf-8")
    data = green.io.read_references(m2)
    assert data["references"] == [["c b", "e g"], ["d b", "e h"]]
    scorer = green.Scorer(n=2)
    assert scorer.sentence_scores(sources=data["sources"], references=data["references"], hypotheses=["c b", "e h"]) == [1.0, 1.0]


@pytest.mark.parametrize("call", [
    lambda: green.corpus_score(HYP, [HYP], SRC),
    lambda: green.Scorer().corpus_score(SRC, [HYP], HYP),
    lambda: green.Scorer().evaluate(SRC, [HYP], [HYP]),
    lambda: green.Gleu().corpus_score(SRC, [HYP], HYP),
    lambda: green.Scorer().score_files("s.txt", ["r.txt"], ["h.txt"]),
    lambda: Green().update(SRC, HYP, [HYP]),
])
def test_positional_data_is_refused_with_the_call_to_write(call):
    with pytest.raises(TypeError, match=r"takes its data by keyword, so that sources and hypotheses cannot be swapped: write \w+\(\w+=\.\.\., "):
        call()


def test_a_swap_is_visible_in_the_names():
    """By keyword, sources and hypotheses say which is which whatever their order."""
    right = green.corpus_score(sources=SRC, references=STREAMS, hypotheses=HYP)
    assert green.corpus_score(hypotheses=HYP, references=STREAMS, sources=SRC) == right


def test_any_iterable_is_read_once():
    scorer = green.Scorer()
    data = dict(sources=iter(SRC), references=(list(r) for r in STREAMS), systems=(h for h in [HYP]))
    assert scorer.evaluate(**data)["systems"][0]["sentence"] == [[1.0, 1.0]]
    per_sentence = (tuple(r) for r in PER_SENTENCE)
    assert scorer.sentence_scores(sources=tuple(SRC), references_per_sentence=per_sentence, hypotheses=iter(HYP)) == [1.0, 1.0]
