"""Checks every public entry point shares: data by keyword, one reference layout, integers
and warnings.

Data arguments are keyword-only because sources, references and hypotheses are all lists of
strings: given by position, a swap (hypotheses first, as sacrebleu and ``evaluate`` order
them) scores without error and gives a plausible wrong number. References are sacrebleu's
reference streams everywhere (one list per reference set, a string or ``None`` per
sentence); ``references_per_sentence=`` takes the other layout by name. A ``references``
list that looks like the other layout is refused: by its lengths, or, when it is square (as
many sets as sentences), by which layout puts each reference beside the source it corrects.
"""

from __future__ import annotations

import functools
import os
import sys
import warnings
from collections import Counter
from typing import Any, Callable, List, Optional, Sequence, TypeVar

from ._green import GreenError, GreenWarning, bom_warning

F = TypeVar("F", bound=Callable[..., Any])

_PACKAGE = os.path.dirname(os.path.abspath(__file__))

# Square reference lists longer than this are checked on their first SAMPLE sentences.
SAMPLE = 64


def keyword_data(*names: str) -> Callable[[F], F]:
    """Refuse positional data with a one-line error that says how to call instead (the first
    parameter of a method, ``self``, stays positional)."""

    def wrap(func: F) -> F:
        method = "." in func.__qualname__

        @functools.wraps(func)
        def call(*args: Any, **kwargs: Any) -> Any:
            given = args[1:] if method else args
            if given:
                shown = ", ".join(f"{n}=..." for n in names)
                raise TypeError(
                    f"{func.__qualname__}() takes its data by keyword, so that sources and "
                    f"hypotheses cannot be swapped: write {func.__name__}({shown}) "
                    f"(got {len(given)} positional argument{'s' if len(given) > 1 else ''})"
                )
            return func(*args, **kwargs)

        return call  # type: ignore[return-value]

    return wrap


def integer(name: str, value: Any, low: int, high: int) -> int:
    """``value`` as an int in ``low..=high``, or an error naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an integer (got {type(value).__name__})")
    if not low <= value <= high:
        raise GreenError(f"{name} must be between {low} and {high} (got {value})")
    return value


def number(name: str, value: Any) -> float:
    """``value`` as a float, or a TypeError naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number (got {type(value).__name__})")
    return float(value)


def lines(name: str, value: Any) -> List[str]:
    """A list of strings (one per sentence), or a TypeError naming ``name``."""
    if isinstance(value, str):
        raise TypeError(f"{name} must be a list of strings (one per sentence), not a str")
    value = value if isinstance(value, list) else list(value)
    for i, text in enumerate(value):
        if not isinstance(text, str):
            raise TypeError(f"{name} must be a list of strings (one per sentence); {name}[{i}] is {type(text).__name__}")
    return value


def _chars(text: Optional[str]) -> Counter:
    return Counter(text.replace(" ", "")) if text else Counter()


def _transposed(sources: Sequence[str], sets: Sequence[Sequence[Optional[str]]]) -> bool:
    """Whether a square ``references`` fits the sources better read as one list per sentence:
    summed over the references that move under transposition, characters shared with the
    source each would be paired with, as given and transposed."""
    size = min(len(sets), SAMPLE)
    source = [_chars(s) for s in sources[:size]]
    given = swapped = 0
    for k in range(size):
        for i in range(size):
            if i != k:
                ref = _chars(sets[k][i])
                given += sum((ref & source[i]).values())
                swapped += sum((ref & source[k]).values())
    return swapped > given


def streams(
    sources: Sequence[str],
    references: Any,
    references_per_sentence: Any,
) -> List[List[Optional[str]]]:
    """The reference streams of ``sources``: ``references`` checked, or
    ``references_per_sentence`` turned into streams (padded with ``None``)."""
    if references is None and references_per_sentence is None:
        raise TypeError(
            "give references=[set0, set1, ...] (one list per reference set, as sacrebleu) "
            "or references_per_sentence=[[...], ...] (one list per sentence)"
        )
    if references is not None and references_per_sentence is not None:
        raise TypeError("give references= or references_per_sentence=, not both")
    count = len(sources)
    if references_per_sentence is not None:
        return per_sentence(references_per_sentence, count)
    if isinstance(references, str):
        raise TypeError(
            "references must be a list of reference sets (one list of strings per set, as "
            "sacrebleu's reference streams), not a str"
        )
    references = list(references)
    if _strings(references):
        raise TypeError(
            "references must be a list of reference sets, each one string per sentence; it is a "
            "list of strings: for one reference set write references=[lines]"
        )
    sets = [s if isinstance(s, list) else list(s) for s in references]
    wrong = [k for k, s in enumerate(sets) if len(s) != count]
    if wrong and len(sets) == count:
        raise GreenError(
            f"references has {len(sets)} lists for {count} sentences but they do not have {count} "
            "entries each: it looks like one list per sentence; give one list per reference set "
            "(references=[set0, set1, ...], as sacrebleu) or pass references_per_sentence="
        )
    if wrong:
        k = wrong[0]
        raise GreenError(f"references[{k}] has {len(sets[k])} sentences but sources has {count}")
    if count >= 2 and len(sets) == count and _transposed(sources, sets):
        raise GreenError(
            f"references is {count} lists of {count}, and each reference fits its source better "
            "read as one list per sentence: give one list per reference set (references=[set0, "
            "set1, ...], as sacrebleu) or pass the lists as references_per_sentence="
        )
    return sets


def _strings(values: Any) -> bool:
    return any(isinstance(v, str) for v in values)


def per_sentence(references: Any, count: Optional[int] = None) -> List[List[Optional[str]]]:
    """Per-sentence reference lists (any number each) as reference streams padded with
    ``None``; ``count`` is the number of sentences they must cover, when known."""
    if isinstance(references, str):
        raise TypeError("references_per_sentence must be one list of reference strings per sentence, not a str")
    rows = list(references)
    if _strings(rows):
        raise TypeError(
            "references_per_sentence must be one list of reference strings per sentence; it holds a str"
        )
    rows = [r if isinstance(r, list) else list(r) for r in rows]
    if count is not None and len(rows) != count:
        raise GreenError(
            f"references_per_sentence has {len(rows)} lists but sources has {count} sentences"
        )
    width = max((len(r) for r in rows), default=0)
    return [[r[k] if k < len(r) else None for r in rows] for k in range(width)]


def warn(message: str) -> None:
    """A :class:`GreenWarning` attributed to the first caller outside this package."""
    level, frame = 2, sys._getframe(1)
    while frame is not None and os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == _PACKAGE:
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    warnings.warn(message, GreenWarning, stacklevel=level)


def bom(named: Sequence[tuple]) -> None:
    """Warn for each ``(name, lines)`` whose first line starts with a UTF-8 byte-order mark,
    as the CLI warns for its files."""
    for name, texts in named:
        if texts and isinstance(texts[0], str) and texts[0].startswith("\ufeff"):
            warn(bom_warning(name))
