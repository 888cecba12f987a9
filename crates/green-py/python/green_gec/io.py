"""Reading GEC data files with the CLI's rules: line files, M2 (plain, or ChERRANT's with
``T<ref>-A<alt>`` lines), para TSV (MuCGEC's ``没有错误`` = the source) and MultiGEC-2025
Markdown essays (aligned by essay id). References come back in the package's one layout,
one list per reference set (``None`` where a set has no reference for a sentence), and as
``references_per_sentence``; the CLI's warnings about a file are
:class:`green_gec.GreenWarning`\\ s::

    data = green_gec.io.read_references("MuCGEC_dev.txt", format="para")
    scorer.corpus_score(sources=data["sources"], references=data["references"], hypotheses=hyps)
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Sequence, Union

from . import _check
from ._green import read_lines as _read_lines
from ._green import read_multigec as _read_multigec
from ._green import read_references as _read_references

Path = Union[str, "os.PathLike[str]"]


def read_lines(path: Path) -> List[str]:
    """The lines of a text file as the CLI reads them (Python's text mode: ``\\n``, ``\\r\\n``
    and ``\\r`` end a line; a byte-order mark stays, with the CLI's warning; invalid UTF-8 is
    an error naming the line)."""
    lines = _read_lines(path)
    _check.bom([(os.fspath(path), lines)])
    return lines


def read_references(*paths: Path, format: str = "auto", missing_annotator: str = "skip") -> Dict[str, Any]:
    """The references of one or more files (line files, M2 with or without target lines, para
    TSV) as the CLI reads ``-r`` arguments: ``sources`` (None for line files), ``references``
    (one list per reference set, padded with None), ``references_per_sentence`` and
    ``warnings`` (also given as :class:`green_gec.GreenWarning`\\ s)."""
    data = _read_references(*paths, format=format, missing_annotator=missing_annotator)
    for message in data["warnings"]:
        _check.warn(message)
    per_sentence = data.pop("references")
    data["references"] = _check.per_sentence(per_sentence)
    data["references_per_sentence"] = per_sentence
    return data


def read_multigec(original: Path, *, references: Sequence[Path], systems: Sequence[Path] = ()) -> Dict[str, Any]:
    """MultiGEC-2025 Markdown essays aligned by essay id, as the CLI aligns ``-s``, ``-r`` and
    ``-c`` ``*.md`` files: ``ids``, ``sources``, ``references`` (one list per reference set,
    padded with None), ``references_per_sentence`` (a list per essay) and ``hypotheses`` (a
    list per system file)."""
    data = _read_multigec(original, list(references), list(systems))
    per_sentence = data.pop("references")
    data["references"] = _check.per_sentence(per_sentence)
    data["references_per_sentence"] = per_sentence
    return data


__all__ = ["read_lines", "read_multigec", "read_references"]
