"""green.Some, green.Impara, green.Scribendi and green.PtM2 give the reports `green some`,
`green impara`, `green scribendi` and `green ptm2 --format json` print (and so the originals'
numbers, which the CLI is checked against), on green-neural's tiny random models; no torch.

They need a package and a `green` built with the `neural` feature: these tests skip when the
package has no model-based metrics, and fail instead when GREEN_REQUIRE_NEURAL=1 (CI step 50
builds both with it). A Hub id is looked up in a Hugging Face cache made here.
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
from pathlib import Path

import pytest

import green_gec as green
from green_gec import _green

from conftest import REPO, read_lines

DATA = REPO / "crates" / "green-neural" / "tests" / "data"
SRC, HYP = DATA / "some-sentences.src", DATA / "some-sentences.hyp"


@pytest.fixture(autouse=True)
def neural():
    if not hasattr(_green, "SomeCore"):
        if os.environ.get("GREEN_REQUIRE_NEURAL") == "1":
            pytest.fail("green_gec was built without the neural feature but GREEN_REQUIRE_NEURAL=1")
        pytest.skip("green_gec built without the neural feature")


def cli(bin_, *args, env=None):
    proc = subprocess.run([str(bin_), *map(str, args), "--format", "json"], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def systems():
    """The written hypotheses, and a second system: the sources themselves."""
    return [str(HYP), str(SRC)]


def test_some_equals_the_cli(green_bin):
    m = green.Some(DATA / "some-tiny")
    src = read_lines(SRC)
    stats = [m.stats(sources=src, hypotheses=read_lines(Path(p))) for p in systems()]
    printed = cli(green_bin, "some", "--models", DATA / "some-tiny", "-s", SRC, "-c", *systems())
    assert m.report(stats, names=systems()) == printed
    score = m.fold(stats[0])
    assert score.score == printed["systems"][0]["some"]
    assert score.signature == m.signature() == printed["signature"]
    assert score.details["sentences"] == printed["systems"][0]["sentences"]
    # Statistics fold in shards; the object pickles (and loads its models again).
    again = pickle.loads(pickle.dumps(m))
    assert again.fold(json.loads(json.dumps(stats[0][:3])) + stats[0][3:]) == score
    w = green.Some(DATA / "some-tiny", weights=(1, 0, 0), batch_size=1)
    assert w.signature().startswith("some|models:") and "|weights:1,0,0|" in w.signature()


def test_impara_equals_the_cli(green_bin):
    qe, se = DATA / "impara-tiny" / "qe", DATA / "impara-tiny" / "se"
    m = green.Impara(qe, se)
    src = read_lines(SRC)
    stats = [m.stats(sources=src, hypotheses=read_lines(Path(p))) for p in systems()]
    assert m.report(stats, names=systems()) == cli(green_bin, "impara", "--qe", qe, "--se", se, "-s", SRC, "-c", *systems())
    trained = green.Impara(DATA / "impara-tiny" / "qe-trained", se, threshold=0.97)
    printed = cli(green_bin, "impara", "--qe", DATA / "impara-tiny" / "qe-trained", "--se", se, "--threshold", "0.97", "-s", SRC, "-c", HYP)
    assert trained.score(sources=src, hypotheses=read_lines(HYP)).score == printed["systems"][0]["impara"]


def test_scribendi_equals_the_cli(green_bin):
    m = green.Scribendi(DATA / "scribendi-tiny")
    src = read_lines(SRC)
    stats = [m.stats(sources=src, hypotheses=read_lines(Path(p))) for p in systems()]
    printed = cli(green_bin, "scribendi", "--model", DATA / "scribendi-tiny", "-s", SRC, "-c", *systems())
    assert m.report(stats, names=systems()) == printed
    assert m.fold(stats[0]).score == printed["systems"][0]["scribendi"]
    # A system that changes nothing scores 0.
    assert m.fold(stats[1]).score == 0


def test_ptm2_equals_the_cli(green_bin):
    model, base = DATA / "impara-tiny" / "se", DATA / "ptm2-tiny-baseline.tsv"
    gold, hyp = DATA / "ptm2-sentences.m2", DATA / "ptm2-sentences.hyp"
    m = green.PtM2(gold, model=model, layers=1, baseline=base)
    lines = read_lines(hyp)
    stats = m.stats(lines)
    printed = cli(green_bin, "ptm2", "--model", model, "--layers", "1", "--baseline", base, "--m2", gold, "-c", hyp)
    assert m.report([stats], names=[str(hyp)]) == printed
    score = m.score(lines)
    system = printed["systems"][0]
    assert (score.score, score.precision, score.recall) == (
        system["ptm2"],
        system["corpus_score"]["precision"],
        system["corpus_score"]["recall"],
    )
    # Shards: the second half's lines start at its first gold sentence (one sentence per
    # batch, so that the float rounding of a batch cannot differ between the runs).
    one = green.PtM2(gold, model=model, layers=1, baseline=base, batch_size=1)
    half = len(lines) // 2
    shards = one.stats(lines[:half]) + one.stats(lines[half:], start=half)
    assert shards == one.stats(lines)
    assert pickle.loads(pickle.dumps(one)).fold(shards) == one.score(lines)
    with pytest.raises(green.GreenError, match="one output line per gold sentence"):
        m.score(lines[:-1])


def test_ptm2_errant_bases_equal_the_cli(green_bin):
    model = DATA / "impara-tiny" / "se"
    gold, hyp, sys_m2 = DATA / "ptm2-errant-gold.m2", DATA / "ptm2-sentences.hyp", DATA / "ptm2-errant-sys.m2"
    m = green.PtM2(gold, model=model, layers=1, errant=True)
    lines = read_lines(hyp)
    stats = m.stats(lines, hyp_m2=sys_m2)
    printed = cli(green_bin, "ptm2", "--model", model, "--layers", "1", "--m2", gold, "-c", hyp, "--hyp-m2", sys_m2)
    assert m.report([stats], names=[str(hyp)]) == printed
    assert m.signature() == printed["signature"] and "|base:errant|" in m.signature()
    assert m.stats(lines, hyp_m2_text=sys_m2.read_text(encoding="utf-8")) == stats
    score = m.score(lines, hyp_m2=sys_m2)
    system = printed["systems"][0]
    assert (score.score, score.precision, score.recall) == (
        system["ptm2"],
        system["corpus_score"]["precision"],
        system["corpus_score"]["recall"],
    )
    # Shards: each with its lines' blocks of the system's M2 (one sentence per batch).
    one = green.PtM2(gold, model=model, layers=1, batch_size=1, errant=True)
    blocks = sys_m2.read_text(encoding="utf-8").strip().split("\n\n")
    assert len(blocks) == len(lines)
    half = len(lines) // 2
    shards = one.stats(lines[:half], hyp_m2_text="\n\n".join(blocks[:half])) + one.stats(
        lines[half:], start=half, hyp_m2_text="\n\n".join(blocks[half:])
    )
    assert shards == one.stats(lines, hyp_m2=sys_m2)
    assert pickle.loads(pickle.dumps(one)).fold(shards) == one.score(lines, hyp_m2=sys_m2)
    # The bases and the system's M2 go together; the M2 must be made from the lines.
    with pytest.raises(green.GreenError, match="need each system's ERRANT M2"):
        m.stats(lines)
    with pytest.raises(green.GreenError, match="errant=True"):
        green.PtM2(gold, model=model, layers=1).stats(lines, hyp_m2=sys_m2)
    with pytest.raises(green.GreenError, match="its edits give"):
        m.stats(read_lines(HYP), hyp_m2=sys_m2)
    with pytest.raises(TypeError, match="not both"):
        m.stats(lines, hyp_m2=sys_m2, hyp_m2_text="")


def test_bad_input_is_one_clear_error(tmp_path):
    with pytest.raises(green.GreenError, match="grammer"):
        green.Some(DATA / "scribendi-tiny")
    m = green.Scribendi(DATA / "scribendi-tiny")
    with pytest.raises(green.GreenError, match="one hypothesis per source"):
        m.stats(sources=["a", "b"], hypotheses=["a"])
    with pytest.raises(TypeError):
        m.stats(sources="a b", hypotheses="a b")
    with pytest.raises(green.GreenError, match="nothing to score"):
        m.fold([])
    with pytest.warns(green.GreenWarning, match="byte-order mark"):
        m.stats(sources=["\ufeffa b"], hypotheses=["a b"])


def hub_cache(root: Path, repo: str, model: Path) -> Path:
    """A Hugging Face cache holding `model` as `repo` at main."""
    snapshot = root / f"models--{repo.replace('/', '--')}" / "snapshots" / "0123abcd"
    shutil.copytree(model, snapshot)
    (snapshot.parent.parent / "refs").mkdir()
    (snapshot.parent.parent / "refs" / "main").write_text("0123abcd")
    return root


def test_hub_ids_are_read_from_the_local_cache(tmp_path, monkeypatch, green_bin):
    cache = hub_cache(tmp_path / "hub", "tiny/gpt2", DATA / "scribendi-tiny")
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))
    by_id = green.Scribendi("tiny/gpt2")
    by_dir = green.Scribendi(DATA / "scribendi-tiny")
    src, hyp = read_lines(SRC), read_lines(HYP)
    assert by_id.report([by_id.stats(sources=src, hypotheses=hyp)]) == by_dir.report([by_dir.stats(sources=src, hypotheses=hyp)])
    printed = cli(green_bin, "scribendi", "--model", "tiny/gpt2", "-s", SRC, "-c", HYP, env={**os.environ, "HF_HUB_CACHE": str(cache)})
    assert printed["signature"] == by_dir.signature()
    with pytest.raises(green.GreenError, match="never downloads"):
        green.Scribendi("tiny/other")
    with pytest.raises(green.GreenError, match="revision v9"):
        green.Scribendi("tiny/gpt2", revision="v9")
