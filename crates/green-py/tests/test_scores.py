"""Score objects as sacrebleu users expect them, and the numbers behind them equal the CLI's:
``score`` x100, P/R, counts, signature, ``str()`` and ``format(width=...)`` as the CLI prints;
``sentence_score`` for one sentence; means as NumPy (``mgreen``) from every entry point;
GREEN's bootstrap interval and paired tests equal to ``green paired``."""

from __future__ import annotations

import json
import math
import pickle
import subprocess

import pytest
import reference_green

import green_gec as green
from green_gec._green import quantize
from green_gec.metric import Green

ARGS = ["-s", "source.txt", "-r", "ref0.txt", "ref1.txt"]


def cli(green_bin, cwd, *args):
    out = subprocess.run([str(green_bin), *map(str, args)], cwd=cwd, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.fixture(scope="module")
def amu(conll14):
    return dict(sources=conll14["source"], references=conll14["refs"], hypotheses=conll14["systems"]["AMU"])


def test_corpus_score_object_prints_as_the_cli(conll14, green_bin, amu):
    score = green.Scorer(beta=2.0).corpus_score(**amu)
    printed = json.loads(cli(green_bin, conll14["dir"], *ARGS, "-c", "systems/AMU.txt", "-b", "2", "--format", "json"))
    result = printed["systems"][0]["results"][0]
    assert score.score == result["score"] and score.signature == result["signature"]
    last = result["orders"][-1]
    assert (score.precision, score.recall) == (last["cum_p"], last["cum_r"])
    assert [c["tp"] for c in score.counts] == [o["tp"] for o in result["orders"]]
    assert score.counts[0] == {k: result["orders"][0][k] for k in ("tk", "td", "ti", "od", "oi", "ud", "ui", "tp", "fp", "fn")} | {"order": 1}
    assert all(isinstance(v, int) for row in score.counts for v in row.values())
    # `green -v -l -d 4`: alpha, beta, cumP, cumR, cumF, rounded as the CLI rounds.
    line = cli(green_bin, conll14["dir"], *ARGS, "-c", "systems/AMU.txt", "-b", "2", "-v", "-l", "-d", "4").split()
    assert str(score) == f"GREEN = {score.format(2, score_only=True)} (P = 86.56, R = 78.63, beta = 2)"
    assert score.format(width=4) == f"GREEN = {line[4]} (P = {line[2]}, R = {line[3]}, beta = 2)"
    assert score.format(6, score_only=True) == cli(green_bin, conll14["dir"], *ARGS, "-c", "systems/AMU.txt", "-b", "2", "-d", "6").split()[-1]
    assert pickle.loads(pickle.dumps(score)) == score


def test_half_up_rounding_is_the_clis_not_pythons():
    score = green.Score(name="GREEN", score=0.125, signature="s")
    # Python's format rounds the binary value half-even: 0.12; the CLI prints 0.13.
    assert f"{0.125:.2f}" == "0.12" and score.format(score_only=True) == "0.13"


def test_means_are_numpys_from_every_entry_point(conll14, green_bin, amu, tmp_path, monkeypatch):
    """`mgreen` sums NumPy's way (pairwise); a running sum differs in the last bit here."""
    printed = json.loads(cli(green_bin, conll14["dir"], *ARGS, "-c", "systems/AMU.txt", "-b", "2", "--level", "mean", "--format", "json"))
    want = printed["systems"][0]["results"][0]["mean"]
    scorer = green.Scorer(beta=2.0)
    sentences = scorer.sentence_scores(**amu)
    assert 100 * (sum(sentences) / len(sentences)) != want  # the running sum is off...
    assert 100 * reference_green.numpy_mean(sentences) == want  # ...NumPy's pairwise sum is not
    numpy = pytest.importorskip("numpy")
    assert 100 * float(numpy.mean(sentences)) == want
    data = dict(sources=amu["sources"], references=amu["references"])
    entry = {
        "mean_score": scorer.mean_score(**amu).score / 100,
        "module mean_score": green.mean_score(**amu, beta=2.0).score / 100,
        "evaluate": scorer.evaluate(**data, systems=[amu["hypotheses"]])["systems"][0]["mean"][0],
        "fold": scorer.fold(scorer.stats(**data, systems=[amu["hypotheses"]]))["systems"][0]["mean"][0],
        "score_files": scorer.score_files(
            source=conll14["dir"] / "source.txt",
            references=[conll14["dir"] / "ref0.txt", conll14["dir"] / "ref1.txt"],
            systems=[conll14["dir"] / "systems" / "AMU.txt"],
        )["systems"][0]["mean"][0],
        "score_rows": scorer.score_rows(
            (s, [r0, r1], [h]) for s, r0, r1, h in zip(amu["sources"], *amu["references"], amu["hypotheses"])
        )["systems"][0]["mean"][0],
    }
    metric = Green(beta=2.0)
    metric.update(**amu)
    entry["metric.Green"] = metric.compute()["mean"]
    monkeypatch.setenv("HF_HOME", str(tmp_path))
    monkeypatch.setenv("HF_EVALUATE_OFFLINE", "1")
    import evaluate
    from test_loops import HF_MODULE

    hf = evaluate.load(str(HF_MODULE))
    per_sentence = [list(r) for r in zip(*amu["references"])]
    entry["evaluate module"] = hf.compute(sources=amu["sources"], predictions=amu["hypotheses"], references=per_sentence)["green_mean"]
    for name, got in entry.items():
        # x100 and back can move the last bit, so compare on the CLI's scale.
        assert got == want / 100 or 100 * got == want, name


def test_sentence_score_is_the_sentence_level(conll14, green_bin, amu):
    scorer = green.Scorer(beta=[0.5])
    sentences = scorer.sentence_scores(**amu)
    sgreen = cli(green_bin, conll14["dir"], *ARGS, "-c", "systems/AMU.txt", "-b", "0.5", "--level", "sentence", "-d", "8").split()
    for i in [0, 5, 1311]:
        refs = [amu["references"][0][i], None, amu["references"][1][i]]
        one = scorer.sentence_score(hypothesis=amu["hypotheses"][i], references=refs, source=amu["sources"][i])
        assert one.score == 100 * sentences[i] and one.format(8, score_only=True) == sgreen[i]
        assert one.level == "sentence" and one.details["chosen"] in (0, 2)
        f = one.beta**2
        assert math.isclose(one.score, (1 + f) * one.precision * one.recall / (f * one.precision + one.recall), rel_tol=1e-12) or one.score == 0
    assert one.signature.endswith(f"|refs:2|level:sentence|v:{green.__version__}")
    module = green.sentence_score(hypothesis="He goes to the school .", references=["He goes to school ."], source="He go to school .")
    assert str(module) == "GREEN = 72.17 (P = 55.05, R = 78.25, beta = 2)"
    with pytest.raises(TypeError, match="takes its data by keyword"):
        green.sentence_score("He goes .", ["He goes ."], "He go .")


def test_bootstrap_interval_and_paired_tests_equal_green_paired(conll14, green_bin):
    data = dict(sources=conll14["source"], references=conll14["refs"])
    systems = [conll14["systems"]["AMU"], conll14["systems"]["CAMB"], conll14["systems"]["IITB"]]
    scorer = green.Scorer("word", beta=2.0)
    paths = ["systems/AMU.txt", "systems/CAMB.txt", "systems/IITB.txt"]
    for test, method in [("bs", scorer.paired_bs), ("ar", scorer.paired_ar)]:
        printed = json.loads(cli(green_bin, conll14["dir"], "paired", *ARGS, "-c", *paths, "-b", "2", "--test", test,
                                 "--reps", "200", "--seed", "7", "--format", "json"))
        mine = method(**data, systems=systems, names=paths, reps=200, seed=7)
        assert mine == printed
    # One system's interval: the baseline's interval of the paired bootstrap, same draws.
    score = scorer.corpus_score(**data, hypotheses=systems[0], n_bootstrap=200, seed=7)
    baseline = json.loads(cli(green_bin, conll14["dir"], "paired", *ARGS, "-c", *paths[:2], "-b", "2",
                              "--reps", "200", "--seed", "7", "--format", "json"))
    interval = baseline["comparisons"][0]["result"]["intervals"][0]
    assert (score.ci.low, score.ci.high) == (100 * interval["low"], 100 * interval["high"])
    assert (score.ci.level, score.ci.replicates, score.ci.seed) == (0.95, 200, 7)
    low, high = (quantize(100 * interval[k], 2) for k in ("low", "high"))
    assert str(score).startswith(f"GREEN = {score.format(score_only=True)} [{low}, {high}] (P = ")
    with pytest.raises(green.GreenError, match="at least one more system"):
        scorer.paired(**data, systems=systems[:1])
    assert scorer.corpus_score(**data, hypotheses=systems[0]).ci is None


def test_gleu_and_edit_metrics_give_scores(conll14):
    g = green.Gleu().corpus_score(sources=conll14["source"], references=conll14["refs"], hypotheses=conll14["systems"]["AMU"])
    assert g.name == "GLEU" and g.level == "corpus" and str(g).startswith("GLEU = ") and g.sentences == 1312
    mean = green.Gleu().mean_score(sources=conll14["source"], references=conll14["refs"], hypotheses=conll14["systems"]["AMU"])
    assert mean.level == "mean" and "mean of 1312 sentence scores" in str(mean)
