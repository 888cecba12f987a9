"""green.ErrantCompare and green.Cleme give the numbers `green errant-compare` and `green cleme`
give (and so ERRANT 3.0.2's errant_compare and the CLEME paper's Table 10)."""

from __future__ import annotations

import json
import os
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
    e = green.ErrantCompare(REF)
    assert len(e) == 2
    r = e.score(HYP, cat=2)
    assert (r["tp"], r["fp"], r["fn"]) == (1, 0, 1)
    assert (r["p"], r["r"], r["f"]) == (1.0, 0.5, 0.8333)
    assert r["categories"]["VERB:SVA"] == [1, 0, 0]
    assert r["signature"].startswith("errant|mode:cs|beta:0.5|")
    d = green.ErrantCompare(REF, mode="ds").score(HYP)
    assert d["signature"].startswith("errant|mode:ds|")


def test_errant_stats_shard_and_pickle():
    e = green.ErrantCompare(REF)
    stats = pickle.loads(pickle.dumps(e.stats(HYP)))
    assert e.fold(stats[:1] + stats[1:]) == e.score(HYP)


def test_cleme_small():
    c = green.Cleme(REF)
    r = c.score(HYP)
    d = r["dependent"]["corpus_unweighted"]
    assert (d["tp"], d["fp"], d["fn"], d["tn"]) == (1.0, 0.0, 1.0, 3.0)
    assert r["mean_length"] == 1.0
    assert c.fold(json.loads(json.dumps(c.stats(HYP)))) == r


def test_bad_input_is_a_green_error(tmp_path):
    with pytest.raises(green.GreenError, match="has 1 sentences"):
        green.ErrantCompare(REF).score("S he go to school\n")
    with pytest.raises(green.GreenError, match="unknown mode"):
        green.ErrantCompare(REF, mode="xx")
    with pytest.raises(green.GreenError, match="cannot read"):
        green.Cleme(tmp_path / "missing.m2")
    with pytest.raises(TypeError):
        green.Cleme(3)


def test_real_data_equals_the_cli(shared):
    ref = shared / "data" / "cleme" / "conll14.errant"
    hyp = shared / "data" / "cleme" / "conll14-AMU.errant"
    r = green.ErrantCompare(ref).score(hyp)
    assert (r["tp"], r["fp"], r["fn"], r["f"]) == (483, 795, 1934, 0.3208)
    c = green.Cleme(ref).score(hyp)
    assert c["dependent"]["corpus"]["f"] == 0.2514
    assert c["independent"]["sentence"]["f"] == 0.42
    bin_ = os.environ.get("GREEN_BIN")
    if bin_:
        out = subprocess.run([bin_, "cleme", "-hyp", str(hyp), "-ref", str(ref), "--format", "json"],
                             capture_output=True, text=True, check=True).stdout
        assert json.loads(out)["systems"][0]["report"]["dependent"] == c["dependent"]


def test_foreign_statistics_are_refused():
    with pytest.raises(green.GreenError, match="not statistics from Cleme.stats"):
        green.Cleme(REF).fold([{"x": 1}])


def test_errant_parallel_feeds_errant_compare():
    m2 = green.errant_parallel(["he go to school", "fine"], [["he goes to school .", "fine"]], merge="all-split")
    assert m2 == (
        "S he go to school\nA 1 2|||R|||goes|||REQUIRED|||-NONE-|||0\nA 4 4|||M|||.|||REQUIRED|||-NONE-|||0\n\n"
        "S fine\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
    )
    assert green.ErrantCompare(m2).score(m2)["f"] == 1.0
    with pytest.raises(green.GreenError, match="needs a tagger"):
        green.errant_parallel(["a"], [["b"]], merge="rules")
    with pytest.raises(green.GreenError, match="cor\\[0\\] has 0 lines"):
        green.errant_parallel(["a"], [[]])
