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
        with pytest.warns(green.GreenWarning, match="starts with a UTF-8 byte-order mark; as in the original tools, it is kept") as record:
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


# Ten sentences: the guards judge from at least five texts.
ZH = ["我们明天去学校。", "他昨天没有来。", "这个问题很难。", "我喜欢看书。", "天气很好。"] * 2
SPACED = [" ".join(s) for s in ZH]


def test_input_guards_warn_from_every_entry_point(tmp_path):
    """The CLI's guards (green-input) on the data each entry point scores."""
    unsegmented = "the texts are Chinese or Japanese without spaces, so -t word makes each line one token"
    data = dict(sources=ZH, references=[ZH], hypotheses=ZH)
    word = green.Scorer("word")
    for call in [
        lambda: word.corpus_score(**data),
        lambda: word.evaluate(sources=ZH, references=[ZH], systems=[ZH]),
        lambda: word.stats(sources=ZH, references=[ZH], systems=[ZH]),
        lambda: word.score_rows((s, [s], [s]) for s in ZH),
        lambda: word.paired(sources=ZH, references=[ZH], systems=[ZH, ZH], test="exact"),
        lambda: green.Gleu("word").corpus_score(**data),
    ]:
        with pytest.warns(green.GreenWarning, match=unsegmented) as record:
            call()
        assert record[0].filename == __file__
    spaced = "the sources and references and systems are Chinese or Japanese spaced character by character, so tokenizer 'zh'"
    with pytest.warns(green.GreenWarning, match=spaced):
        green.Scorer("zh").corpus_score(sources=SPACED, references=[SPACED], hypotheses=SPACED)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        green.Scorer("zh", norm="cjk-join").corpus_score(sources=SPACED, references=[SPACED], hypotheses=SPACED)
        green.Scorer("zh").corpus_score(**data)
    para = [f"{i}\t{s}\t{s}" for i, s in enumerate(ZH)]
    with pytest.warns(green.GreenWarning, match=r"references\[0\] looks like a para TSV file"):
        green.Scorer("char").corpus_score(sources=ZH, references=[para], hypotheses=ZH)
    src, ref = write(tmp_path / "src.txt", ZH), write(tmp_path / "para.txt", para)
    with pytest.warns(green.GreenWarning, match=f"{ref} looks like a para TSV file"):
        green.Scorer("char").score_files(source=src, references=[ref], systems=[src])


def test_maxmatch_guards_the_system_lines_as_it_splits_them():
    gold = "".join(f"S {s}\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n" for s in SPACED)
    m = green.MaxMatch(text=gold)
    with pytest.warns(green.GreenWarning, match="the systems are Chinese or Japanese without spaces but the sources are spaced"):
        m.score(ZH)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m.score(SPACED)
        green.MaxMatch(text=gold, tokenizer="char").score(ZH)  # split into characters, as the gold
