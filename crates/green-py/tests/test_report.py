"""One output model: every metric's ``report`` is the dict its CLI command prints with
``--format json`` (same keys, same numbers, bit for bit), on CoNLL-14."""

from __future__ import annotations

import json
import math
import subprocess

import pytest

import green_gec as green

TWO = ["AMU", "CAMB"]


def cli(green_bin, *args):
    out = subprocess.run([str(green_bin), *map(str, args), "--format", "json"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.fixture(scope="module")
def files(shared):
    d = shared / "data" / "conll14"
    return {
        "source": d / "source.txt",
        "refs": [d / "ref0.txt", d / "ref1.txt"],
        "systems": [d / "systems" / f"{name}.txt" for name in TWO],
        "gold": d / "conll14st-test.m2",
    }


@pytest.mark.parametrize("level", ["corpus", "sentence", "mean"])
def test_green_report_is_the_cli_json(green_bin, files, conll14, level):
    s = green.Scorer(beta=[1.0, 2.0, math.inf])
    expected = cli(green_bin, "-s", files["source"], "-r", *files["refs"], "-c", *files["systems"],
                   "-b", "1", "2", "inf", "--level", level)
    got = s.report_files(source=files["source"], references=files["refs"], systems=files["systems"], level=level)
    assert got == expected
    assert got["signature"].startswith(f"green|n:4|beta:1,2,inf|tok:word|norm:none|refs:2|level:{level}|")
    # In memory, with names: the same scores; no file names to report.
    names = [str(p) for p in files["systems"]]
    mem = s.report(sources=conll14["source"], references=conll14["refs"], systems=[conll14["systems"][n] for n in TWO],
                   level=level, names=names)
    assert mem["systems"] == expected["systems"]
    assert (mem["source"], mem["references"]) == (None, [])


def test_green_report_char_level_and_default_names(green_bin, files, conll14):
    s = green.Scorer("char", n=6, beta=1.0)
    expected = cli(green_bin, "-s", files["source"], "-r", *files["refs"], "-c", files["systems"][0],
                   "-t", "char", "-n", "6", "--level", "mean")
    data = dict(sources=conll14["source"], references=conll14["refs"], systems=[conll14["systems"]["AMU"]])
    got = s.report(**data, level="mean")
    assert got["systems"][0]["path"] == "system1"
    assert got["systems"][0]["results"] == expected["systems"][0]["results"]
    with pytest.raises(green.GreenError, match="2 names for 1 systems"):
        s.report(**data, names=["a", "b"])
    with pytest.raises(green.GreenError, match="unknown level 'median'"):
        s.report(**data, level="median")


@pytest.mark.parametrize("level,max_", [("corpus", False), ("corpus", True), ("mean", False), ("sentence", True)])
def test_gleu_report_is_the_cli_json(green_bin, files, conll14, level, max_):
    g = green.Gleu()
    args = ["gleu", "-s", files["source"], "-r", *files["refs"], "-o", *files["systems"], "--level", level]
    expected = cli(green_bin, *args, *(["--max"] if max_ else []))
    stats = [g.stats(sources=conll14["source"], references=conll14["refs"], hypotheses=conll14["systems"][n]) for n in TWO]
    got = g.report(stats, names=[str(p) for p in files["systems"]], level=level, max=max_)
    assert got == expected
    assert got["signature"] == g.signature("2", level, max_)


@pytest.mark.parametrize("verbose", [False, True])
def test_maxmatch_report_is_the_cli_json(green_bin, files, verbose):
    m = green.MaxMatch(files["gold"])
    expected = cli(green_bin, "maxmatch", *(["-v"] if verbose else []), *files["systems"], files["gold"])
    stats = [m.stats(p.read_text(encoding="utf-8").splitlines()) for p in files["systems"]]
    got = m.report(stats, names=[str(p) for p in files["systems"]], verbose=verbose)
    assert got == expected
    assert 100 * got["systems"][0]["f"] == m.fold(stats[0]).score


def test_errant_and_cleme_reports_are_the_cli_json(green_bin, files, conll14, tmp_path):
    src = conll14["source"]
    ref = tmp_path / "ref.m2"
    ref.write_text(green.errant_parallel(src, conll14["refs"]), encoding="utf-8")
    hyps = []
    for name in TWO:
        path = tmp_path / f"{name}.m2"
        path.write_text(green.errant_parallel(src, [conll14["systems"][name]]), encoding="utf-8")
        hyps.append(path)
    names = [str(p) for p in hyps]

    e = green.ErrantCompare(ref)
    stats = [e.stats(p) for p in hyps]
    for cat, verbose in [(3, False), (1, True)]:
        expected = cli(green_bin, "errant-compare", "-hyp", *hyps, "-ref", ref, "-cat", cat,
                       *(["-v"] if verbose else []))
        assert e.report(stats, names=names, cat=cat, verbose=verbose) == expected
    with pytest.raises(green.GreenError, match=r"^cat must be between 1 and 3 \(got 4\)$"):
        e.report(stats, cat=4)
    with pytest.raises(green.GreenError, match=r"^cat must be between 1 and 3 \(got 300\)$"):
        e.fold(stats[0], cat=300)

    c = green.Cleme(ref)
    expected = cli(green_bin, "cleme", "-hyp", *hyps, "-ref", ref)
    got = c.report([c.stats(p) for p in hyps], names=names)
    assert got == expected
    score = c.fold(c.stats(hyps[1]))
    assert score.counts == {k: got["systems"][1]["report"]["dependent"]["corpus"][k] for k in ("tp", "fp", "fn", "tn")}
