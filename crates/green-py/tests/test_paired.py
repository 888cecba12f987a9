"""Paired significance from Python for every metric with per-sentence statistics
(``MaxMatch``, ``ErrantCompare``, ``Cleme``, ``Gleu``): the numbers of `green paired --stats`."""

from __future__ import annotations

import json
import subprocess

import pytest

import green_gec as green

REF = (
    "S he go to school\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n\n"
    "S fine\nA 1 1|||M:PUNCT|||.|||REQUIRED|||-NONE-|||0\n\n"
    "S a b c\nA 0 1|||R:NOUN|||x|||REQUIRED|||-NONE-|||0\n"
)
GOOD = (
    "S he go to school\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n\n"
    "S fine\nA 1 1|||M:PUNCT|||.|||REQUIRED|||-NONE-|||0\n\n"
    "S a b c\nA 0 1|||R:NOUN|||x|||REQUIRED|||-NONE-|||0\n"
)
NOOP = (
    "S he go to school\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
    "S fine\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
    "S a b c\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n"
)


def test_exact_randomisation_by_hand():
    # B corrects all three sentences, A none: F0.5 1.0 against 0.0. Of the 2^3 swaps, only
    # "none" and "all" keep |delta| = 1 (any other mix gives both systems some TP and FN).
    e = green.ErrantCompare(text=REF)
    a, b = e.stats(text=NOOP), e.stats(text=GOOD)
    r = e.paired(a, b, test="exact")
    assert (r["a"], r["b"], r["delta"], r["replicates"]) == (0.0, 1.0, 1.0, 8)
    assert r["p"] == 0.25
    assert r["test"] == "exact-randomisation"


def test_identical_systems_are_never_significant():
    e = green.ErrantCompare(text=REF)
    s = e.stats(text=GOOD)
    for test in ["bs", "ar", "exact"]:
        assert e.paired(s, s, test=test, reps=99)["p"] == 1.0
    c = green.Cleme(text=REF)
    cs = c.stats(text=GOOD)
    assert c.paired(cs, cs, reps=50)["p"] == 1.0
    assert c.paired(cs, cs, reps=50, independent=True)["p"] == 1.0


def test_bad_arguments_are_green_errors():
    e = green.ErrantCompare(text=REF)
    s = e.stats(text=GOOD)
    with pytest.raises(green.GreenError, match="unknown test 'xx'"):
        e.paired(s, s, test="xx")
    with pytest.raises(green.GreenError, match="same sentences"):
        e.paired(s, s[:2])
    with pytest.raises(green.GreenError, match=r"^reps must be between 1 and 1000000 \(got 0\)$"):
        e.paired(s, s, reps=0)
    with pytest.raises(green.GreenError, match=r"^reps must be between 1 and 1000000 \(got -1\)$"):
        e.paired(s, s, reps=-1)
    with pytest.raises(green.GreenError, match=r"^seed must be between 0 and 18446744073709551615 \(got 36893488147419103232\)$"):
        e.paired(s, s, seed=2**65)
    with pytest.raises(TypeError, match=r"^reps must be an integer \(got float\)$"):
        e.paired(s, s, reps=10.0)
    with pytest.raises(green.GreenError, match="not statistics from ErrantCompare.stats"):
        e.paired([{"x": 1}], s)


def test_gleu_paired_small():
    g = green.Gleu(n=2, iterations=20)
    srcs = ["a b c d", "e f g h", "i j k l"]
    refs = [["a b x d", "e y g h", "i j k z"]]
    a = g.stats(sources=srcs, references=refs, hypotheses=srcs)
    b = g.stats(sources=srcs, references=refs, hypotheses=["a b x d", "e y g h", "i j k z"])
    r = g.paired(a, b, test="exact")
    assert 100 * r["a"] == g.fold(a).score and 100 * r["b"] == g.fold(b).score
    assert r["delta"] > 0 and r["replicates"] == 8
    assert 100 * g.paired(a, b, test="ar", reps=200, max=True)["a"] == g.fold(a, max=True).score


def test_m2_paired_equals_the_cli(shared, tmp_path, green_bin):
    gold = shared / "data" / "conll14" / "conll14st-test.m2"
    systems = shared / "data" / "conll14" / "systems"
    m = green.MaxMatch(gold)
    lines = lambda name: (systems / name).read_text(encoding="utf-8").splitlines()
    a, b = m.stats(lines("AMU.txt")), m.stats(lines("CAMB.txt"))
    bs = m.paired(a, b, reps=300, seed=4)
    assert 100 * bs["a"] == m.fold(a).score and 100 * bs["b"] == m.fold(b).score
    assert 0 < bs["p"] <= 1 and len(bs["intervals"]) == 3
    bin_ = str(green_bin)
    stats = tmp_path / "m2.json"
    subprocess.run([bin_, "maxmatch", str(systems / "AMU.txt"), str(systems / "CAMB.txt"), str(gold),
                    "--stats", str(stats)], capture_output=True, check=True)
    for test, py in [("bs", bs), ("ar", m.paired(a, b, test="ar", reps=300, seed=4))]:
        out = subprocess.run([bin_, "paired", "--stats", str(stats), "--test", test, "--reps", "300",
                              "--seed", "4", "--format", "json"], capture_output=True, text=True,
                             check=True).stdout
        assert json.loads(out)["comparisons"][0]["result"] == py

