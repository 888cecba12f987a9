"""Score objects, as sacrebleu users expect them: ``score`` on the scale the CLI prints (×100),
precision and recall beside it, the integer counts it came from, the signature, and
``str()`` rounding as the CLI rounds (half-up from the shortest decimal form, not Python's
binary rounding), so a printed score is the CLI's printed score.

Every number here is unrounded; only ``format``/``str`` round. Plain data (``evaluate``,
``fold`` of GREEN, ``sentence_scores``) stays in fractions, as the statistics do.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Mapping, Optional

from ._green import quantize


def _beta(beta: float) -> str:
    """A beta as the signatures write it: ``2``, ``0.5``, ``inf``."""
    return f"{beta:g}"


@dataclass(frozen=True)
class Interval:
    """A percentile bootstrap confidence interval of a score, on the score's scale (×100)."""

    low: float
    high: float
    #: Coverage, e.g. 0.95.
    level: float
    replicates: int
    seed: int

    @classmethod
    def _of(cls, data: Mapping[str, Any], seed: int) -> "Interval":
        return cls(100 * data["low"], 100 * data["high"], data["level"], data["replicates"], seed)


@dataclass(frozen=True)
class Score:
    """One score of one system: ``score`` ×100 as printed (e.g. ``82.53…``), unrounded.

    ``name`` is the metric (``GREEN``, ``GLEU``, ``M2``, ``ERRANT``, ``CLEME-dependent``...);
    ``level`` is ``corpus``, ``mean`` (of sentence scores) or ``sentence``; ``precision`` and
    ``recall`` (×100) are there where the metric has them; ``counts`` holds the integer
    statistics behind the score (GREEN: per-order regions and TP/FP/FN; M2: correct, proposed,
    gold; ERRANT: tp, fp, fn; CLEME: length-weighted tp, fp, fn, tn); ``ci`` the bootstrap
    interval when one was asked for; ``details`` what else the metric reports.
    """

    name: str
    score: float
    signature: str
    level: str = "corpus"
    precision: Optional[float] = None
    recall: Optional[float] = None
    beta: Optional[float] = None
    counts: Any = None
    sentences: Optional[int] = None
    ci: Optional[Interval] = None
    details: Dict[str, Any] = field(default_factory=dict)

    def format(self, width: int = 2, score_only: bool = False) -> str:
        """The score as the CLI prints it with ``-d width``: ``GREEN = 82.53 (P = 87.35,
        R = 78.21, beta = 1)``, with the interval as ``[81.85, 83.25]`` after the score;
        ``score_only=True`` gives the number alone."""
        number = lambda x: quantize(x, width)  # noqa: E731
        if score_only:
            return number(self.score)
        text = f"{self.name} = {number(self.score)}"
        if self.ci is not None:
            text += f" [{number(self.ci.low)}, {number(self.ci.high)}]"
        notes = []
        if self.precision is not None and self.recall is not None:
            notes += [f"P = {number(self.precision)}", f"R = {number(self.recall)}"]
        if self.beta is not None:
            notes.append(f"beta = {_beta(self.beta)}")
        if self.level == "mean" and self.sentences is not None:
            notes.append(f"mean of {self.sentences} sentence scores")
        return f"{text} ({', '.join(notes)})" if notes else text

    def __str__(self) -> str:
        return self.format()
