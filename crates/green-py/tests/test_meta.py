"""``green_gec.meta`` and ``green_gec.maege``: the report as data, the dict ``green meta`` and
``green maege`` print with ``--format json``."""

from __future__ import annotations

import json
import subprocess

import pytest

import green_gec as green


def cli(green_bin, *args):
    out = subprocess.run([str(green_bin), *map(str, args), "--format", "json"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_meta_runs_a_dataset_descriptor(shared, green_bin):
    data = shared / "data"
    got = green.meta("gjg15", data=data, tokenizers="word", beta=[1.0, 2.0], levels=["corpus", "mean"], gleu=True)
    assert got == cli(green_bin, "meta", "-D", "gjg15", "--data", data, "-t", "word", "-b", "1", "2",
                      "--level", "corpus", "mean", "--gleu")
    labels = [row["label"] for row in got["rows"]]
    assert labels[:2] == ["GREEN word N=4 β=1 corpus", "GREEN word N=4 β=2 corpus"] and len(labels) == 6
    assert "gjg15" in green.datasets()
    with pytest.raises(green.GreenError, match="neither built in"):
        green.meta("no-such-dataset", data=data)
    with pytest.raises(green.GreenError, match="data: the directory .* does not exist"):
        green.meta("gjg15", data=data / "missing")


def test_meta_rates_metric_scores_like_judgments(shared, green_bin):
    """Rating-based aggregation (Goto et al. 2025) from Python: the CLI's numbers, and each
    level a row of its own."""
    data = shared / "data"
    levels = ["corpus", "expected-wins", "trueskill"]
    got = green.meta("gjg15", data=data, tokenizers="word", levels=levels, ts_runs=50, gleu=True)
    assert got == cli(green_bin, "meta", "-D", "gjg15", "--data", data, "-t", "word", "--level", *levels,
                      "--ts-runs", "50", "--gleu")
    labels = [row["label"] for row in got["rows"]]
    assert any(label.endswith("expected-wins") for label in labels), labels
    assert any(label.endswith("trueskill") for label in labels), labels
    with pytest.raises(green.GreenError, match="level"):
        green.meta("gjg15", data=data, tokenizers="word", levels="elo")


def test_meta_rows_come_in_the_clis_order(shared, green_bin):
    """Several tokenizers and levels, and the CLEME2.0 and GoToScorer rows: the CLI's rows, in
    its order (per tokenizer, then level)."""
    data = shared / "data"
    got = green.meta("gjg15-paper", data=data, tokenizers=["word", "char"], levels=["corpus", "mean"], cleme2=True)
    assert got == cli(green_bin, "meta", "-D", "gjg15-paper", "--data", data, "-t", "word", "char",
                      "--level", "corpus", "mean", "--cleme2")
    labels = [row["label"] for row in got["rows"]]
    assert labels[0] == "GREEN word N=4 β=2 corpus" and any("GoToScorer" in label for label in labels), labels


def test_maege_runs_an_m2_file(shared, green_bin):
    m2 = shared / "data" / "conll14" / "conll14st-test.m2"
    got = green.maege(m2, tokenizers=["word", "char"], n=[2, 4], reps=1, gleu=True, gleu_iterations=10)
    assert got == cli(green_bin, "maege", m2, "-t", "word", "char", "-n", "2,4", "--reps", "1", "--gleu",
                      "--gleu-iterations", "10")
    assert [row["label"] for row in got["rows"]][:2] == ["GREEN word N=2 β=2 corpus", "GREEN word N=4 β=2 corpus"]
    with pytest.raises(green.GreenError, match="unknown protocol 'x'"):
        green.maege(m2, protocol="x")


def test_maege_warns_about_stray_annotators(tmp_path):
    blocks = "".join(
        f"S a b c {i}\nA 0 1|||R|||x|||REQUIRED|||-NONE-|||0\n" + ("A 1 2|||R|||y|||REQUIRED|||-NONE-|||1\n" if i == 0 else "") + "\n"
        for i in range(30)
    )
    m2 = tmp_path / "stray.m2"
    m2.write_text(blocks, encoding="utf-8")
    with pytest.warns(green.GreenWarning, match="annotator"):
        green.maege(m2, reps=1)
