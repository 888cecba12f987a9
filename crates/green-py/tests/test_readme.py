"""The package README's examples run as written, from the repository root."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

from conftest import REPO

README = REPO / "crates" / "green-py" / "README.md"


def test_readme_examples(monkeypatch):
    monkeypatch.chdir(REPO)
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```pycon\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 4
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs: dict = {}
    for k, block in enumerate(blocks):
        test = parser.get_doctest(block, globs, f"README block {k + 1}", str(README), 0)
        runner.run(test, clear_globs=False)
        globs = test.globs  # the next block goes on from this one's names
    result = runner.summarize(verbose=False)
    assert result.failed == 0 and result.attempted > 10


def test_readme_exists_beside_the_package():
    assert Path(__file__).resolve().parent.parent.joinpath("README.md") == README
