"""Scores from Python equal the reference implementation's golden outputs on CoNLL-14."""

from __future__ import annotations

import pytest
from conftest import SYSTEMS, fmt, fmt_plain, read_lines

import green_gec as green

BETAS = [0.5, 1.0, 2.0]


@pytest.mark.parametrize("level", ["corpus", "mean"])
@pytest.mark.parametrize("tokenizer,n", [("word", 4), ("char", 6)])
def test_corpus_and_mean_tables(conll14, shared, level, tokenizer, n):
    result = green.evaluate(
        sources=conll14["source"], references=conll14["refs"], systems=[conll14["systems"][s] for s in SYSTEMS], n=n, beta=BETAS, tokenizer=tokenizer
    )
    lines = ["alpha\t" + "\t".join(fmt_plain(a) for a in result["alphas"]), "beta\t" + "\t".join(fmt_plain(b) for b in BETAS)]
    for name, system in zip(SYSTEMS, result["systems"]):
        lines.append(f"systems/{name}.txt\t" + "\t".join(fmt(x) for x in system[level]))
    golden = read_lines(shared / "golden" / "conll14" / f"{level}.{tokenizer}.n{n}.tsv")
    assert lines == golden
    assert result["signatures"][level] == f"green|n:{n}|beta:0.5,1,2|tok:{tokenizer}|norm:none|refs:2|level:{level}|v:{green.__version__}"


@pytest.mark.parametrize("tokenizer,n", [("word", 4), ("char", 6)])
def test_sentence_table(conll14, shared, tokenizer, n):
    scorer = green.Scorer(tokenizer, n=n, beta=[0.5, 2.0])
    systems = [conll14["systems"]["AMU"], conll14["systems"]["IITB"]]
    result = scorer.evaluate(sources=conll14["source"], references=conll14["refs"], systems=systems)
    golden = read_lines(shared / "golden" / "conll14" / f"sentence.{tokenizer}.n{n}.AMU-IITB.tsv")
    assert len(golden) == len(conll14["source"])
    # Columns are beta-major, then system.
    for i, line in enumerate(golden):
        row = [fmt(result["systems"][h]["sentence"][b][i]) for b in range(2) for h in range(2)]
        assert "\t".join(row) == line, f"sentence {i + 1}"
    # The single-system call gives the same numbers.
    amu = scorer.sentence_scores(sources=conll14["source"], references=conll14["refs"], hypotheses=systems[0], beta=2.0)
    assert amu == result["systems"][0]["sentence"][1]


def test_verbose_per_order_counts(conll14, shared):
    """The per-order table of `green -v` (AMU, beta 2): counts and scores."""
    result = green.evaluate(sources=conll14["source"], references=conll14["refs"], systems=[conll14["systems"]["AMU"]], beta=2.0)
    rows = [line for line in read_lines(shared / "golden" / "conll14" / "verbose.word.n4.AMU.txt") if line[:3] in {"| 1", "| 2", "| 3", "| 4"}]
    assert len(rows) == 4
    for order, row in zip(result["systems"][0]["orders"][0], rows):
        cells = [c.strip() for c in row.strip("|").split("|")]
        counts = [order[k] for k in ("order", "tk", "td", "ti", "od", "oi", "ud", "ui", "tp", "fp", "fn")]
        scores = [fmt(order[k]) for k in ("p", "r", "f", "cum_p", "cum_r", "cum_f")]
        assert cells == [str(c) for c in counts] + scores


def test_matches_pure_python_reference(conll14):
    """The Rust core and reference_green.py (the spec in plain Python) agree to the bit."""
    import reference_green

    for name in ["AMU", "POST"]:
        hyps = conll14["systems"][name]
        py = reference_green.score(conll14["source"], conll14["refs"], hyps, n=4, beta=2.0)
        result = green.evaluate(sources=conll14["source"], references=conll14["refs"], systems=[hyps], beta=2.0)["systems"][0]
        assert result["corpus"][0] == py["corpus"]
        assert result["mean"][0] == py["mean"]
        assert result["sentence"][0] == py["sentence"]
        keys = ("tk", "td", "ti", "od", "oi", "ud", "ui")
        assert [[o[k] for k in keys] for o in result["orders"][0]] == py["orders"]
