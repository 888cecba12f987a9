"""green.Gleu gives the numbers `green gleu` gives (and so the PyPI package `gleu --fix-seed`)."""

from __future__ import annotations

import json
import subprocess
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest

import green_gec as green

FIXTURES = Path(__file__).resolve().parents[2] / "green-cli" / "tests" / "fixtures"


def lines(path):
    with open(path, encoding="utf-8") as f:
        return [x.rstrip("\n") for x in f]


def cli_json(green_bin, args, cwd):
    out = subprocess.run([str(green_bin), "gleu", *args, "--format", "json"], cwd=cwd, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def printed(x, digits):
    return str(Decimal(str(100 * x)).quantize(Decimal(10) ** -digits, rounding=ROUND_HALF_UP))


def test_small_corpus_equals_the_package_goldens():
    d = FIXTURES / "gleu"
    src, refs, hyp = lines(d / "src.txt"), [lines(d / "ref0.txt"), lines(d / "ref1.txt")], lines(d / "hyp0.txt")
    # expected/gleu-1.txt: `gleu -t word -d 6`; gleu-3.txt: `gleu -m -d 4`; mgleu-13: `mgleu -t word -d 6`.
    first = lambda name: (d / "expected" / name).read_text().splitlines()[0].split("\t")[1]
    data = dict(sources=src, references=refs, hypotheses=hyp)
    assert green.Gleu().corpus_score(**data).format(6, score_only=True) == first("gleu-1.txt")
    assert green.Gleu().corpus_score(**data, max=True).format(4, score_only=True) == first("gleu-3.txt")
    assert green.Gleu().mean_score(**data).format(6, score_only=True) == first("mgleu-13.txt")
    sentences = green.Gleu("char", n=6).sentence_scores(**data)
    expected = [row.split("\t")[0] for row in (d / "expected" / "sgleu-8.txt").read_text().splitlines()]
    assert [printed(s, 10) for s in sentences] == expected


def test_equals_the_cli_on_conll14(conll14, green_bin):
    args = ["-s", "source.txt", "-r", "ref0.txt", "ref1.txt", "-o", "systems/AMU.txt", "-t", "char", "-n", "6"]
    cli = cli_json(green_bin, args, conll14["dir"])
    gleu = green.Gleu("char", n=6)
    score = gleu.corpus_score(sources=conll14["source"], references=conll14["refs"], hypotheses=conll14["systems"]["AMU"])
    assert score.score == cli["systems"][0]["score"]
    assert gleu.signature("2") == cli["signature"] == score.signature


def test_bad_settings_and_input():
    with pytest.raises(green.GreenError, match=r"^n must be between 1 and 100 \(got 0\)$"):
        green.Gleu(n=0)
    with pytest.raises(green.GreenError, match=r"^iterations must be between 1 and 100000"):
        green.Gleu(iterations=0)
    with pytest.raises(green.GreenError, match="^no sentences"):
        green.Gleu().corpus_score(sources=[], references=[[]], hypotheses=[])
    assert green.Gleu().sentence_scores(sources=[], references=[[]], hypotheses=[]) == []
    with pytest.raises(green.GreenError, match="has no reference"):
        green.Gleu().corpus_score(sources=["a"], references=[[None]], hypotheses=["a"])
    with pytest.raises(green.GreenError, match="references"):
        green.Gleu().corpus_score(sources=["a", "b"], references=[["a"]], hypotheses=["a", "b"])


def test_statistics_of_shards_fold_like_one_pass():
    d = FIXTURES / "gleu"
    src, refs, hyp = lines(d / "src.txt"), [lines(d / "ref0.txt"), lines(d / "ref1.txt")], lines(d / "hyp0.txt")
    gleu = green.Gleu(iterations=50)
    cuts = [0, 1, len(src) // 2, len(src)]
    stats = []
    for a, b in zip(cuts, cuts[1:]):
        stats += json.loads(json.dumps(gleu.stats(sources=src[a:b], references=[r[a:b] for r in refs], hypotheses=hyp[a:b])))
    data = dict(sources=src, references=refs, hypotheses=hyp)
    assert gleu.fold(stats) == gleu.corpus_score(**data)
    assert gleu.fold(stats, max=True) == gleu.corpus_score(**data, max=True)
    assert gleu.fold(stats, level="mean") == gleu.mean_score(**data)
    with pytest.raises(green.GreenError, match="N=4 for 1 systems cannot fold under this Gleu \\(N=3"):
        green.Gleu(n=3).fold(stats)
    with pytest.raises(green.GreenError, match="fold gives corpus or mean"):
        gleu.fold(stats, level="sentence")
