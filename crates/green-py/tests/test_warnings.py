"""The CLI's warnings reach Python as ``GreenWarning``\\ s through the ``warnings`` module (so
``-W error`` and ``pytest.warns`` work), attributed to the caller's line."""

from __future__ import annotations

import subprocess
import sys
import warnings

import pytest

import green_gec as green

STRAY = "".join(
    f"S a b c {i}\nA 0 1|||R|||x|||REQUIRED|||-NONE-|||0\n" + ("A 1 2|||R|||y|||REQUIRED|||-NONE-|||1\n" if i == 0 else "") + "\n"
    for i in range(30)
)


def write(path, lines):
    path.write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    return path


def test_byte_order_marks_warn_from_every_entry_point(tmp_path):
    src = write(tmp_path / "src.txt", ["\ufeffa b c", "d e f"])
    ref = write(tmp_path / "ref.txt", ["a b c", "d e f"])
    scorer = green.Scorer(n=2)
    files = dict(source=src, references=[ref], systems=[ref])
    for call in [
        lambda: green.io.read_lines(src),
        lambda: scorer.score_files(**files),
        lambda: scorer.stats_files(**files),
        lambda: scorer.report_files(**files),
        lambda: scorer.corpus_score(sources=["\ufeffa b c", "d e f"], references=[["a b c", "d e f"]], hypotheses=["a b c", "d e f"]),
        lambda: green.Gleu(n=2).corpus_score(sources=["a b c"], references=[["\ufeffa b c"]], hypotheses=["a b c"]),
    ]:
        with pytest.warns(green.GreenWarning, match="starts with a UTF-8 byte-order mark; like the reference, it is kept") as record:
            call()
        assert record[0].filename == __file__  # the caller's line, not the package's
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        scorer.score_files(source=ref, references=[ref], systems=[ref])  # no mark, no warning


def test_m2_doubts_warn(tmp_path):
    m2 = tmp_path / "stray.m2"
    m2.write_text(STRAY, encoding="utf-8")
    with pytest.warns(green.GreenWarning, match="annotator") as record:
        data = green.io.read_references(m2)
    assert data["warnings"] == [str(w.message) for w in record]
    past = "S a b\nA 5 6|||R|||x|||REQUIRED|||-NONE-|||0\n"
    with pytest.warns(green.GreenWarning, match="end past their sentence"):
        green.MaxMatch(text=past)


def test_warnings_become_errors_with_the_warnings_filter(tmp_path):
    m2 = tmp_path / "stray.m2"
    m2.write_text(STRAY, encoding="utf-8")
    code = f"import green_gec; green_gec.io.read_references({str(m2)!r})"
    out = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True, text=True)
    assert out.returncode != 0 and "GreenWarning" in out.stderr
    assert issubclass(green.GreenWarning, UserWarning)
