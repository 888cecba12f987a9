"""``green_gec.html_report`` is ``green report``: the same data (every number, every sentence's
edits and outcomes) as the command's ``--format json`` on the same texts, the same choices and
errors, and a page that is written whole."""

from __future__ import annotations

import json
import subprocess

import pytest

import green_gec as green

# What names files: the command records paths, Python names its lists.
FILES = ("corpus", "systems")


def cli(green_bin, *args):
    out = subprocess.run([str(green_bin), "report", *map(str, args), "--format", "json"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def without_files(data):
    return {k: v for k, v in data.items() if k not in FILES}


@pytest.fixture(scope="module")
def corpus(shared, conll14):
    d = shared / "data" / "conll14"
    n = 120  # a slice keeps the bootstrap quick; the gold file is cut to the same sentences
    blocks = (d / "conll14st-test.m2").read_text(encoding="utf-8").split("\n\n")[:n]
    return {
        "source": conll14["source"][:n],
        "refs": [r[:n] for r in conll14["refs"]],
        "systems": [conll14["systems"][s][:n] for s in ("AMU", "CAMB", "UFC")],
        "gold": "\n\n".join(blocks) + "\n\n",
    }


def write(tmp_path, corpus):
    paths = {"source": tmp_path / "src.txt", "gold": tmp_path / "gold.m2"}
    paths["source"].write_text("\n".join(corpus["source"]) + "\n", encoding="utf-8")
    paths["gold"].write_text(corpus["gold"], encoding="utf-8")
    paths["refs"] = []
    for k, ref in enumerate(corpus["refs"]):
        paths["refs"].append(tmp_path / f"ref{k}.txt")
        paths["refs"][-1].write_text("\n".join(ref) + "\n", encoding="utf-8")
    paths["systems"] = []
    for name, hyps in zip(("AMU", "CAMB", "UFC"), corpus["systems"]):
        paths["systems"].append(tmp_path / f"{name}.txt")
        paths["systems"][-1].write_text("\n".join(hyps) + "\n", encoding="utf-8")
    return paths


def test_the_data_is_the_commands(green_bin, corpus, tmp_path):
    p = write(tmp_path, corpus)
    expected = cli(green_bin, "-s", p["source"], "-r", *p["refs"], "-c", *p["systems"], "--m2", p["gold"],
                   "--metrics", "green,m2,errant,cleme", "--reps", 200, "--seed", 7, "--baseline", "CAMB")
    report = green.html_report(sources=corpus["source"], references=corpus["refs"], systems=corpus["systems"],
                               names=["AMU", "CAMB", "UFC"], gold_m2=p["gold"], metrics="green,m2,errant,cleme",
                               reps=200, seed=7, baseline="CAMB")
    assert without_files(report.data) == without_files(expected)
    assert [s["name"] for s in report.data["systems"]] == ["AMU", "CAMB", "UFC"]
    assert report.data["baseline"] == 1
    # The page embeds the same data and names no directory of this machine.
    assert report.html.startswith("<!DOCTYPE html>") and str(tmp_path) not in report.html
    assert "gold.m2" in report.html


def test_a_scorer_keeps_its_tokenizer_and_the_defaults_are_the_commands(green_bin, corpus, tmp_path):
    p = write(tmp_path, corpus)
    expected = cli(green_bin, "-s", p["source"], "-r", *p["refs"], "-c", *p["systems"][:2], "-t", "char", "-n", "6")
    scorer = green.Scorer("char", n=6, beta=1.0)
    report = scorer.html_report(sources=corpus["source"], references=corpus["refs"], systems=corpus["systems"][:2],
                                names=["AMU", "CAMB"])
    assert without_files(report.data) == without_files(expected)
    assert [m["metric"] for m in report.data["metrics"]] == ["GREEN", "ERRANT"]


def test_save_writes_the_page_or_the_data_whole(corpus, tmp_path):
    report = green.html_report(sources=corpus["source"][:5], references=[r[:5] for r in corpus["refs"]],
                               systems=[corpus["systems"][0][:5]], reps=10)
    report.save(tmp_path / "r.html")
    report.save(tmp_path / "r.json")
    assert (tmp_path / "r.html").read_text(encoding="utf-8") == report.html
    assert json.loads((tmp_path / "r.json").read_text(encoding="utf-8")) == report.data
    assert sorted(f.name for f in tmp_path.iterdir()) == ["r.html", "r.json"]
    with pytest.raises(green.GreenError, match="does not exist; create it first"):
        report.save(tmp_path / "no" / "r.html")
    assert "srcdoc=" in report._repr_html_() and "HtmlReport(" in repr(report)


def test_bad_settings_say_what_to_do(corpus, tmp_path):
    data = dict(sources=corpus["source"][:5], references=[r[:5] for r in corpus["refs"]],
                systems=[s[:5] for s in corpus["systems"]], reps=10)
    with pytest.raises(green.GreenError, match="needs gold edits"):
        green.html_report(metrics=["m2"], **data)
    with pytest.raises(green.GreenError, match="unknown metric 'bleu'"):
        green.html_report(metrics="bleu", **data)
    with pytest.raises(green.GreenError, match="baseline= zzz is none of the systems"):
        green.html_report(baseline="zzz", **data)
    with pytest.raises(green.GreenError, match="buckets= must be increasing"):
        green.html_report(buckets=[20, 10], **data)
    with pytest.raises(green.GreenError, match="names for 3 systems"):
        green.html_report(names=["a"], **data)
    with pytest.raises(green.GreenError, match="reps must be between"):
        green.html_report(**{**data, "reps": 0})
    with pytest.raises(TypeError, match="by keyword"):
        green.html_report(data["sources"])
    short = tmp_path / "short.m2"
    short.write_text(corpus["gold"].split("\n\n")[0] + "\n\n", encoding="utf-8")
    with pytest.raises(green.GreenError, match="short.m2 has 1 sentences but the corpus has 5"):
        green.html_report(gold_m2=short, **data)
    with pytest.raises(green.GreenError, match="a sentence block must start with an S line"):
        green.html_report(gold_m2=__file__, **data)


def test_input_doubts_are_warnings():
    text = ["我喜欢吃苹果和香蕉，也喜欢喝茶。"] * 3
    with pytest.warns(green.GreenWarning, match="word"):
        green.html_report(sources=text, references=[text], systems=[text], reps=10)
