"""A tokenizer plugin from Python: the Rust regex example plugin (plugins/regex).

`plugin:regex` is built into the package (no build step); the tests that load it as a library
use $GREEN_REGEX_PLUGIN, else target/release/libgreen_regex.so (built by
`cargo build --release -p green-plugin-regex`, which .ci/steps/50-python.sh runs).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import REPO, build_release

import green_gec as green


@pytest.fixture(scope="module")
def regex_plugin() -> Path:
    build_release()
    value = os.environ.get("GREEN_REGEX_PLUGIN")
    path = Path(value) if value else REPO / "target" / "release" / "libgreen_regex.so"
    if not path.is_file():
        pytest.fail(f"regex plugin not found at {path}: run `cargo build --release -p green-plugin-regex` or set GREEN_REGEX_PLUGIN")
    return path


def test_split_plugin_scores_like_word(conll14, regex_plugin):
    plugin = green.Scorer(f"plugin:{regex_plugin}", beta=[0.5, 2.0], options={"plugin-config": r"split:\s+"})
    word = green.Scorer("word", beta=[0.5, 2.0])
    hyps = [conll14["systems"]["AMU"], conll14["systems"]["POST"]]
    by_plugin = plugin.evaluate(sources=conll14["source"], references=conll14["refs"], systems=hyps)
    by_word = word.evaluate(sources=conll14["source"], references=conll14["refs"], systems=hyps)
    assert by_plugin["systems"] == by_word["systems"]
    assert "plugin:regex" in by_plugin["signature"]


def test_built_in_regex_plugin_needs_no_build(conll14, monkeypatch):
    monkeypatch.delenv("GREEN_PLUGIN_PATH", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", "/nonexistent")
    plugin = green.Scorer("plugin:regex", options={"plugin-config": r"split:\s+"})
    word = green.Scorer("word")
    data = dict(sources=conll14["source"], references=conll14["refs"], hypotheses=conll14["systems"]["AMU"])
    assert plugin.corpus_score(**data).score == word.corpus_score(**data).score
    assert plugin.tokenize("a  b\tc") == ["a", "b", "c"]


def test_plugin_by_name_and_config(regex_plugin, monkeypatch):
    monkeypatch.setenv("GREEN_PLUGIN_PATH", str(regex_plugin.parent))
    scorer = green.Scorer("plugin:regex", options={"plugin-config": r"\w+|[^\w\s]"})
    assert scorer.tokenize("Hello, world!") == ["Hello", ",", "world", "!"]
    score = scorer.corpus_score(sources=["He go home ."], references=[["He goes home."]], hypotheses=["He goes home."])
    assert score.score == green.corpus_score(sources=["He go home ."], references=[["He goes home ."]], hypotheses=["He goes home ."]).score


def test_plugin_errors(regex_plugin):
    with pytest.raises(green.GreenError, match=r"configuration rejected: invalid regular expression"):
        green.Scorer(f"plugin:{regex_plugin}", options={"plugin-config": "("})
    with pytest.raises(green.GreenError, match=r"^a plugin configuration was given but tokenizer 'word' is not a plugin"):
        green.Scorer("word", options={"plugin-config": r"\S+"})
    with pytest.raises(green.GreenError, match=r"nowhere"):
        green.Scorer("plugin:/nowhere/libnothing.so")
