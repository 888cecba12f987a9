"""green.ErrantCompare and green.Cleme give the numbers `green errant-compare` and `green cleme`
give (and so ERRANT 3.0.2's errant_compare and the CLEME paper's Table 10)."""

from __future__ import annotations

import json
import pickle
import subprocess

import pytest

import green_gec as green

REF = (
    "S he go to school\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n"
    "A 1 2|||R:VERB:SVA|||went|||REQUIRED|||-NONE-|||1\n\n"
    "S fine\nA 1 1|||M:PUNCT|||.|||REQUIRED|||-NONE-|||0\nA 1 1|||M:PUNCT|||.|||REQUIRED|||-NONE-|||1\n"
)
HYP = (
    "S he go to school\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n\n"
    "S fine\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n"
)


def test_errant_compare_small():
    e = green.ErrantCompare.from_text(REF)
    assert len(e) == 2
    r = e.score(text=HYP, cat=2)
    assert r.counts == {"tp": 1, "fp": 0, "fn": 1}
    # Unrounded (ERRANT prints 0.8333): F0.5 of P = 1, R = 0.5.
    assert (r.precision, r.recall, r.score) == (100.0, 50.0, 100 * (1.25 * 0.5 / (0.25 + 0.5)))
    assert str(r) == "ERRANT = 83.33 (P = 100.00, R = 50.00, beta = 0.5)"
    assert r.details["categories"]["VERB:SVA"] == [1, 0, 0]
    assert r.signature.startswith("errant|mode:cs|beta:0.5|")
    d = green.ErrantCompare(text=REF, mode="ds").score(text=HYP)
    assert d.signature.startswith("errant|mode:ds|")


def test_errant_stats_shard_and_pickle():
    e = green.ErrantCompare(text=REF)
    stats = pickle.loads(pickle.dumps(e.stats(text=HYP)))
    assert e.fold(stats[:1] + stats[1:]) == e.score(text=HYP)


def test_cleme_small():
    c = green.Cleme(text=REF)
    r = c.score(text=HYP)
    d = r.details["rows"]["CLEME-dependent-unweighted"]
    assert d.counts == {"tp": 1.0, "fp": 0.0, "fn": 1.0, "tn": 3.0}
    assert r.details["mean_length"] == 1.0
    assert sorted(r.details["rows"]) == sorted(
        f"{m}-{v}{u}" for m in ["CLEME", "SentCLEME"] for v in ["dependent", "independent"] for u in ["", "-unweighted"]
    )
    assert r.details["rows"]["CLEME-dependent"].score == r.score
    assert c.fold(json.loads(json.dumps(c.stats(text=HYP)))) == r


def test_bad_input_is_a_green_error(tmp_path):
    with pytest.raises(green.GreenError, match="has 1 sentences"):
        green.ErrantCompare(text=REF).score(text="S he go to school\n")
    with pytest.raises(green.GreenError, match="unknown mode"):
        green.ErrantCompare(text=REF, mode="xx")
    with pytest.raises(green.GreenError, match="cannot read"):
        green.Cleme(tmp_path / "missing.m2")
    with pytest.raises(TypeError):
        green.Cleme(3)


def test_real_data_equals_the_cli(shared, green_bin):
    ref = shared / "data" / "cleme" / "conll14.errant"
    hyp = shared / "data" / "cleme" / "conll14-AMU.errant"
    r = green.ErrantCompare(ref).score(hyp)
    assert r.counts == {"tp": 483, "fp": 795, "fn": 1934}
    assert r.format(2, score_only=True) == "32.08" and r.score != 32.08  # ERRANT prints 0.3208
    c = green.Cleme(ref).score(hyp)
    rows = c.details["rows"]
    assert c.format(score_only=True) == "25.14" and rows["SentCLEME-independent"].format(score_only=True) == "42.00"
    bin_ = str(green_bin)
    out = subprocess.run([bin_, "cleme", "-hyp", str(hyp), "-ref", str(ref), "--format", "json"],
                         capture_output=True, text=True, check=True).stdout
    cli = json.loads(out)["systems"][0]["report"]
    for name, variant, row in [("CLEME-dependent", "dependent", "corpus"),
                               ("SentCLEME-independent-unweighted", "independent", "sentence_unweighted")]:
        printed = cli[variant][row]
        # The CLI prints rounded to 4 decimals; the data is the number before that.
        assert rows[name].counts == {k: printed[k] for k in ("tp", "fp", "fn", "tn")}
        for mine, theirs in [(rows[name].score, printed["f"]), (rows[name].precision, printed["p"])]:
            assert abs(mine / 100 - theirs) <= 5e-5


def test_foreign_statistics_are_refused():
    with pytest.raises(green.GreenError, match="not statistics from Cleme.stats"):
        green.Cleme(text=REF).fold([{"x": 1}])


def test_errant_parallel_feeds_errant_compare():
    m2 = green.errant_parallel(["he go to school", "fine"], [["he goes to school .", "fine"]], merge="all-split")
    assert m2 == (
        "S he go to school\nA 1 2|||R|||goes|||REQUIRED|||-NONE-|||0\nA 4 4|||M|||.|||REQUIRED|||-NONE-|||0\n\n"
        "S fine\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
    )
    assert green.ErrantCompare(text=m2).score(text=m2).score == 100.0
    with pytest.raises(green.GreenError, match="needs a tagger"):
        green.errant_parallel(["a"], [["b"]], merge="rules")
    with pytest.raises(green.GreenError, match="cor\\[0\\] has 0 lines"):
        green.errant_parallel(["a"], [[]])
