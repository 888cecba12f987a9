"""green.Cleme2 and green.GoToScorer give the numbers `green cleme2` and `green gotoscorer` give
(and so CLEME2.0's and gec-metrics' code, which the CLI is checked against)."""

from __future__ import annotations

import json
import pickle
import subprocess

import pytest

import green_gec as green

REF = (
    "S he go to school\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n"
    "A 1 2|||R:VERB:SVA|||went|||REQUIRED|||-NONE-|||1\n\n"
    "S fine\nA 1 1|||M:PUNCT|||.|||REQUIRED|||-NONE-|||0\nA 1 1|||M:PUNCT|||.|||REQUIRED|||-NONE-|||1\n\n"
    "S a apple a day keep doctor away\nA 0 1|||R:DET|||an|||REQUIRED|||-NONE-|||0\n"
    "A 4 5|||R:VERB:SVA|||keeps|||REQUIRED|||-NONE-|||0\nA 5 5|||M:DET|||the|||REQUIRED|||-NONE-|||0\n"
    "A 0 1|||R:DET|||an|||REQUIRED|||-NONE-|||1\nA 4 5|||R:VERB:SVA|||keeps|||REQUIRED|||-NONE-|||1\n"
)
HYPS = [
    "S he go to school\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n\n"
    "S fine\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
    "S a apple a day keep doctor away\nA 0 1|||R:DET|||an|||REQUIRED|||-NONE-|||0\n"
    "A 2 3|||R:DET|||one|||REQUIRED|||-NONE-|||0\n",
    "S he go to school\nA 1 2|||R:VERB:TENSE|||gone|||REQUIRED|||-NONE-|||0\n\n"
    "S fine\nA 1 1|||M:PUNCT|||.|||REQUIRED|||-NONE-|||0\n\n"
    "S a apple a day keep doctor away\nA 4 5|||R:VERB:SVA|||keeps|||REQUIRED|||-NONE-|||0\n"
    "A 5 5|||M:DET|||the|||REQUIRED|||-NONE-|||0\n",
]


@pytest.fixture
def files(tmp_path):
    (tmp_path / "ref.m2").write_text(REF)
    hyps = []
    for k, h in enumerate(HYPS):
        p = tmp_path / f"hyp{k}.m2"
        p.write_text(h)
        hyps.append(str(p))
    return str(tmp_path / "ref.m2"), hyps


def cli(bin_, *args):
    return json.loads(subprocess.run([str(bin_), *args, "--format", "json"], capture_output=True, text=True, check=True).stdout)


@pytest.mark.parametrize("weigher", ["length", "none"])
def test_cleme2_equals_the_cli(files, green_bin, weigher):
    ref, hyps = files
    c = green.Cleme2(ref, weigher=weigher)
    stats = [c.stats(h) for h in hyps]
    assert c.report(stats, names=hyps) == cli(green_bin, "cleme2", "-hyp", *hyps, "-ref", ref, "--weigher", weigher)
    printed = cli(green_bin, "cleme2", "-hyp", hyps[0], "-ref", ref, "--weigher", weigher)["systems"][0]["report"]
    r = c.score(hyps[0])
    head = "corpus_weighted" if weigher == "length" else "corpus"
    assert r.score == 100 * printed["dependent"][head]["com"]
    assert r.details["rows"]["SentCLEME2-independent"].details["com"] == printed["independent"]["sentence"]["com"]
    assert r.signature == c.signature() and r.signature.endswith(f"weights:{weigher}|v:{green.__version__}")
    # Statistics are plain data: they pickle, go through JSON and fold in shards.
    again = pickle.loads(pickle.dumps(c)).fold(json.loads(json.dumps(stats[0][:1])) + stats[0][1:])
    assert again == r
    p = c.paired(stats[0], stats[1], test="exact")
    assert 100 * p["delta"] == pytest.approx(c.score(hyps[1]).score - r.score)


def test_gotoscorer_equals_the_cli(files, green_bin, tmp_path):
    ref, hyps = files
    weights = str(tmp_path / "w.json")
    subprocess.run([str(green_bin), "gotoscorer-weights", "-ref", ref, "-hyp", *hyps, "-out", weights], check=True)
    for extra in [[], ["--weights", weights]]:
        g = green.GoToScorer(ref, weights=weights if extra else None)
        stats = [g.stats(h) for h in hyps]
        printed = cli(green_bin, "gotoscorer", "-hyp", *hyps, "-ref", ref, *extra)
        assert g.report(stats, names=hyps) == printed
        r = g.score(hyps[1])
        corpus = printed["systems"][1]["corpus"]
        assert (r.score, r.precision, r.recall) == (100 * corpus["f"], 100 * corpus["p"], 100 * corpus["r"])
        assert r.details["sentence_f"] == printed["systems"][1]["sentence_f"]
        assert r.signature == printed["signature"]
        assert pickle.loads(pickle.dumps(g)).fold(stats[1][:2] + stats[1][2:]) == r
        p = g.paired(stats[0], stats[1], test="exact")
        assert 100 * p["delta"] == pytest.approx(r.score - g.fold(stats[0]).score)


def test_bad_settings_are_green_errors(files):
    ref, _ = files
    with pytest.raises(green.GreenError, match="weigher must be 'none' or 'length'"):
        green.Cleme2(ref, weigher="similarity")
    with pytest.raises(green.GreenError, match="corpus_factors"):
        green.Cleme2(ref, corpus_factors=(1, 1, 1, 1))
    with pytest.raises(green.GreenError, match="not statistics from GoToScorer.stats"):
        green.GoToScorer(ref).fold([{"x": 1}])
    with pytest.raises(green.GreenError, match="not a GoToScorer weight file"):
        green.GoToScorer(text=REF, weights=ref)
