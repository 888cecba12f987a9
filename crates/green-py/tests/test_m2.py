"""green.MaxMatch gives the numbers `green maxmatch` gives (and so the NUS m2scorer)."""

from __future__ import annotations

import json
import pickle
import subprocess
import warnings
from pathlib import Path

import pytest

import green_gec as green

CASES = Path(__file__).resolve().parents[2] / "green-m2" / "tests" / "fixtures" / "cases"
GOLD = "S he go to school\nA 1 2|||V|||goes|||REQUIRED|||-NONE-|||0\nA 4 4|||P|||.|||REQUIRED|||-NONE-|||1\n\nS fine\n"


def test_small_corpus():
    m = green.MaxMatch.from_text(GOLD, beta=1.0)
    assert len(m) == 2
    r = m.score(["he go to school .", "fine ."])
    assert r.counts == {"correct": 1, "proposed": 2, "gold": 1}
    assert (r.precision, r.recall) == (50.0, 100.0) and r.score == 100 * (2 * 0.5 / 1.5)
    assert r.signature.startswith("m2|beta:1|max-unchanged:2|ws-case:keep|tok:m2scorer-split|")
    assert str(r) == "M2 = 66.67 (P = 50.00, R = 100.00, beta = 1)"
    s = m.sentences(["he go to school .", "fine ."])
    assert s[0]["annotator"] == 1
    # As matched (the CLI's -v table shrinks it to [1, 1, "", "."], as the original prints).
    assert s[1]["edits"] == [{"start": 0, "end": 1, "original": "fine", "correction": "fine ."}]


@pytest.mark.parametrize("case", sorted(p.name for p in CASES.iterdir()))
def test_recorded_cases_equal_the_original(case):
    d = CASES / case
    args = (d / "args").read_text().split()
    kw = {}
    while args:
        a = args.pop(0)
        if a == "--beta":
            kw["beta"] = float(args.pop(0))
        elif a == "--max_unchanged_words":
            kw["max_unchanged_words"] = int(args.pop(0))
        elif a == "--ignore_whitespace_casing":
            kw["ignore_whitespace_casing"] = True
    with open(d / "system.txt", encoding="utf-8", newline="") as f:
        hyps = f.read().split("\n")[:-1]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        m = green.MaxMatch(d / "gold.m2", **kw)
    # The gold file's doubts are GreenWarnings (the one case with edits past their sentence).
    assert [w.category for w in caught] == ([green.GreenWarning] if case == "past-the-end" else [])
    r = m.report([m.stats(hyps)])["systems"][0]  # fractions, as the CLI's JSON
    assert m.score(hyps).score == 100 * r["f"]
    beta = kw.get("beta", 0.5)
    printed = "Precision   : %.4f\nRecall      : %.4f\nF_%.1f       : %.4f\n" % (r["precision"], r["recall"], beta, r["f"])
    assert printed == (d / "expected.txt").read_text()


def test_shards_fold_to_the_whole_and_pickle():
    d = CASES / "annotator-ties"
    m = green.MaxMatch(d / "gold.m2")
    hyps = ["a y b", "r s"]
    shards = [m.stats(hyps)[:1], m.stats(hyps)[1:]]
    shards = pickle.loads(pickle.dumps(shards))
    assert m.fold(shards[0] + shards[1]) == m.score(hyps)
    assert json.loads(json.dumps(shards[0]))[0]["candidates"][0]["annotator"] == 0


def test_tokenizer_for_raw_output():
    m = green.MaxMatch(text="S 他 去 学 校\nA 1 2|||S|||在|||REQUIRED|||-NONE-|||0\n", tokenizer="char")
    assert m.score(["他在学校"]).score == 100.0
    assert "|tok:char|" in m.signature()


def test_errors():
    with pytest.raises(green.GreenError, match="has 1 lines but the gold file has 2 sentences"):
        green.MaxMatch(text=GOLD).score(["x"])
    with pytest.raises(green.GreenError, match="gold:2: "):
        green.MaxMatch(text="S a\nnonsense\n")
    with pytest.raises(green.GreenError, match="beta"):
        green.MaxMatch(text=GOLD, beta=float("nan"))
    with pytest.raises(green.GreenError, match="first"):
        green.MaxMatch(text=GOLD, alternatives="all")
    with pytest.raises(TypeError, match="gold must be a path"):
        green.MaxMatch(3)
    with pytest.raises(green.GreenError, match="not statistics from MaxMatch.stats"):
        green.MaxMatch(text=GOLD).fold([{"x": 1}])


def test_same_as_cli(tmp_path, green_bin):
    (tmp_path / "gold.m2").write_text(GOLD)
    (tmp_path / "sys.txt").write_text("he goes to school\nfine .\n")
    out = subprocess.run([green_bin, "maxmatch", "--format", "json", "sys.txt", "gold.m2"], cwd=tmp_path,
                         capture_output=True, text=True, check=True)
    cli = json.loads(out.stdout)
    r = green.MaxMatch(tmp_path / "gold.m2").score(["he goes to school", "fine ."])
    assert cli["signature"] == r.signature
    system = cli["systems"][0]
    assert (r.precision, r.recall, r.score) == tuple(100 * system[k] for k in ("precision", "recall", "f"))
    assert r.counts == {k: system[k] for k in ("correct", "proposed", "gold")}
