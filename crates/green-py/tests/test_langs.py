"""Chinese and Japanese scoring from Python: real data, one Scorer each, counts checked.

The specs are green-tokenizers' language packs: `zh` (jieba-rs words), `zh:char`, `ja`
(lindera + IPADIC; the dictionary comes from GREEN_JA_DICT or Debian's mecab-ipadic, which
.ci installs), `ja:char`. Counting is checked against reference_green.py fed with the same
tokens, so a failure separates "tokenised differently" from "counted differently".
The first use of a MeCab source builds it into the cache and says so on standard error,
which must not disturb Python (checked in fresh processes on green-ja's tiny dictionary).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import reference_green
from conftest import REPO, read_lines

import green_gec as green


def mucgec(shared, limit=None):
    """MuCGEC dev: sources and reference sets (None where a sentence has fewer references)."""
    rows = [line.split("\t") for line in read_lines(shared / "data" / "zh" / "mucgec" / "MuCGEC_dev.txt")][:limit]
    width = max(len(r) for r in rows) - 2
    return [r[1] for r in rows], [[r[2 + k] if len(r) > 2 + k else None for r in rows] for k in range(width)]


def tecjl(shared, limit):
    """TECJL: learner sources and one system's outputs (header skipped)."""
    rows = [line.split("\t") for line in read_lines(shared / "data" / "ja" / "tecjl" / "human_qe_TECJL.csv")[1:]][:limit]
    return [r[0] for r in rows], [r[1] for r in rows]


def test_chinese_words(shared):
    scorer = green.Scorer("zh")
    assert scorer.tokenize("我们明天去学校。") == ["我们", "明天", "去", "学校", "。"]
    sources, refs = mucgec(shared)
    assert len(sources) == 1137 and len(refs) == 7
    result = scorer.evaluate(sources=sources, references=refs, systems=[sources, refs[0]])
    uncorrected, first_ref = result["systems"]
    assert 0.0 < uncorrected["corpus"][0] < first_ref["corpus"][0] <= 1.0
    assert all(c == 0 for c in first_ref["chosen"][0])  # a reference matches itself best
    assert result["tokenizer"] in result["signature"] and result["refs"] == 7
    # The same tokens through the pure-Python algorithm give the same numbers.
    few_sources, few_refs = mucgec(shared, 200)
    py = reference_green.score(few_sources, few_refs, few_sources, tokenize=scorer.tokenize)
    assert scorer.corpus_score(sources=few_sources, references=few_refs, hypotheses=few_sources).score == 100 * py["corpus"]


def test_chinese_characters(shared):
    scorer = green.Scorer("zh:char", n=6)
    assert scorer.tokenize("我们 去") == ["我", "们", "去"]
    sources, refs = mucgec(shared, 300)
    py = reference_green.score(sources, refs, refs[0], n=6, tokenize=scorer.tokenize)
    assert scorer.sentence_scores(sources=sources, references=refs, hypotheses=refs[0]) == py["sentence"]


def test_japanese_words(shared):
    scorer = green.Scorer("ja")
    tokens = scorer.tokenize("私は学校に行きます。")
    assert tokens[:4] == ["私", "は", "学校", "に"] and tokens[-1] == "。"
    sources, outputs = tecjl(shared, 500)
    # No references ship with TECJL: the source stands in, as in the language packs' suite.
    score = scorer.corpus_score(sources=sources, references=[sources], hypotheses=outputs).score
    py = reference_green.score(sources, [sources], outputs, tokenize=scorer.tokenize)
    assert score == 100 * py["corpus"] and 0.0 < score <= 100.0


def test_japanese_characters(shared):
    scorer = green.Scorer("ja:char", n=6)
    assert scorer.tokenize("学校に 行く") == ["学", "校", "に", "行", "く"]
    sources, outputs = tecjl(shared, 300)
    py = reference_green.score(sources, [sources], outputs, n=6, tokenize=scorer.tokenize)
    assert scorer.mean_score(sources=sources, references=[sources], hypotheses=outputs).score == 100 * py["mean"]


def test_japanese_dictionary_option_is_passed_through(tmp_path):
    missing = tmp_path / "no-dictionary-here"
    with pytest.raises(green.GreenError, match=str(missing)):
        green.Scorer("ja", options={"ja-dict": missing})


TINYDIC = REPO / "langs" / "ja" / "tests" / "fixtures" / "tinydic"
TOKENIZE = f"""
import green_gec as green
print(green.Scorer("ja", options={{"ja-dict": {str(TINYDIC)!r}}}).tokenize("私は学生です。"))
"""


def tokenize_in_a_fresh_process(**env) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", TOKENIZE],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=600,
    )


def test_a_japanese_dictionary_build_is_announced_on_stderr(tmp_path):
    first = tokenize_in_a_fresh_process(XDG_CACHE_HOME=str(tmp_path))
    assert first.returncode == 0, first.stderr
    assert first.stdout == "['私', 'は', '学生', 'です', '。']\n"
    assert first.stderr.startswith(f"green: building the Japanese dictionary from {TINYDIC} into {tmp_path}")
    assert first.stderr.count("\n") == 1
    again = tokenize_in_a_fresh_process(XDG_CACHE_HOME=str(tmp_path))
    assert (again.returncode, again.stdout, again.stderr) == (0, first.stdout, "")


def test_an_unwritable_japanese_cache_builds_for_the_process_only(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    run = tokenize_in_a_fresh_process(XDG_CACHE_HOME=str(blocker / "cache"), TMPDIR=str(tmp_path))
    assert run.returncode == 0, run.stderr
    assert run.stdout == "['私', 'は', '学生', 'です', '。']\n"
    assert run.stderr.startswith("green: warning: cannot create the cache directory") and "--ja-dict" in run.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]
