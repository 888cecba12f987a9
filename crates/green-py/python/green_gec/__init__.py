"""GREEN for Python: the n-gram F-score for grammatical error correction, with a Rust core.

GREEN (Koyama et al., INLG 2024) scores a corrected text against the source and one or more
references by splitting every n-gram into seven regions (kept, deleted, inserted, each done
right, over or under) and computing precision, recall and F from them; no alignment needed.
The numbers are the ones the ``green`` command line prints, bit for bit.

Quick use::

    import green_gec as green
    score = green.corpus_score(sources, [ref0, ref1], hypotheses)      # wordGREEN, N=4, beta=2

In a loop, keep one :class:`Scorer` (a Chinese or Japanese dictionary then loads once)::

    scorer = green.Scorer("word", n=4, beta=2.0)
    for name, hyps in systems.items():
        print(name, scorer.corpus_score(sources, refs, hyps))

``references`` is always a list of reference *sets*, each one string per sentence (like one
reference file each); use ``None`` where a set has no reference for a sentence. Errors in the
input or settings raise :class:`GreenError` (a ``ValueError``) with the CLI's message; inputs
of the wrong type raise ``TypeError``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import List, Mapping, Optional, Sequence, Tuple, Union

from ._green import (
    Cleme,
    ErrantCompare,
    GreenError,
    Gleu,
    MaxMatch,
    Scorer,
    __version__,
    errant_parallel,
    tokenizer_options,
    tokenizers,
)
from ._types import CorpusResult, Evaluation, Folded, OrderCounts, SystemResult

__all__ = [
    "CorpusResult",
    "Evaluation",
    "Folded",
    "Gleu",
    "GreenError",
    "MaxMatch",
    "ErrantCompare",
    "Cleme",
    "errant_parallel",
    "OrderCounts",
    "Scorer",
    "SystemResult",
    "__version__",
    "corpus_score",
    "evaluate",
    "mean_score",
    "sentence_scores",
    "signature",
    "tokenizer_options",
    "tokenizers",
]

_Beta = Union[float, Sequence[float]]
_References = Sequence[Sequence[Optional[str]]]
_Key = Tuple[Tuple[float, ...], Tuple[Tuple[str, object], ...]]


def __dir__() -> List[str]:
    """The public names only (typing helpers and caches stay out of completion lists)."""
    return sorted(__all__ + ["io", "metric"])


def _key(beta: _Beta, options: Optional[Mapping[str, object]]) -> _Key:
    """Hashable settings for the cache (option values stay as given: Scorer converts them)."""
    betas = (beta,) if isinstance(beta, (int, float)) else tuple(beta)
    opts = tuple(sorted(options.items())) if options else ()
    return betas, opts


@lru_cache(maxsize=16)
def _cached(tokenizer: str, n: int, betas: Tuple[float, ...], norm: str, opts: Tuple[Tuple[str, object], ...]) -> Scorer:
    return Scorer(tokenizer, n=n, beta=list(betas), norm=norm, options=dict(opts))


def _scorer(tokenizer: str, n: int, beta: _Beta, norm: str, options: Optional[Mapping[str, object]]) -> Scorer:
    """A scorer for these settings; the last few are cached so dictionaries load once."""
    betas, opts = _key(beta, options)
    return _cached(tokenizer, n, betas, norm, opts)


def corpus_score(
    sources: Sequence[str],
    references: _References,
    hypotheses: Sequence[str],
    n: int = 4,
    beta: float = 2.0,
    tokenizer: str = "word",
    norm: str = "none",
    options: Optional[Mapping[str, object]] = None,
) -> float:
    """Corpus-level GREEN of one system, as a fraction (the CLI prints it x100).

    Per sentence the best reference is chosen; the seven region counts are summed over the
    corpus, then P, R and F are computed from the sums. Defaults are the paper's wordGREEN
    (N=4, beta=2); use ``tokenizer="char", n=6`` for charGREEN.
    """
    return _scorer(tokenizer, n, beta, norm, options).corpus_score(sources, references, hypotheses)


def sentence_scores(
    sources: Sequence[str],
    references: _References,
    hypotheses: Sequence[str],
    n: int = 4,
    beta: float = 2.0,
    tokenizer: str = "word",
    norm: str = "none",
    options: Optional[Mapping[str, object]] = None,
) -> List[float]:
    """Sentence-level GREEN of one system: one float per sentence (best reference each)."""
    return _scorer(tokenizer, n, beta, norm, options).sentence_scores(sources, references, hypotheses)


def mean_score(
    sources: Sequence[str],
    references: _References,
    hypotheses: Sequence[str],
    n: int = 4,
    beta: float = 2.0,
    tokenizer: str = "word",
    norm: str = "none",
    options: Optional[Mapping[str, object]] = None,
) -> float:
    """Mean of the sentence-level GREEN scores of one system (the reference's ``mgreen``)."""
    return _scorer(tokenizer, n, beta, norm, options).mean_score(sources, references, hypotheses)


def evaluate(
    sources: Sequence[str],
    references: _References,
    systems: Sequence[Sequence[str]],
    n: int = 4,
    beta: _Beta = 2.0,
    tokenizer: str = "word",
    norm: str = "none",
    options: Optional[Mapping[str, object]] = None,
) -> Evaluation:
    """Every level for several systems and betas at once, with per-order counts.

    Returns a plain dict (see :class:`Evaluation`): ``result["systems"][k]["corpus"][b]`` is
    system k's corpus score at ``result["betas"][b]``; ``"mean"``, ``"sentence"``, ``"chosen"``
    (index of the reference set chosen per sentence) and ``"orders"`` (per-order region
    counts tk..ui, TP/FP/FN and P/R/F) are laid out the same way.
    """
    return _scorer(tokenizer, n, beta, norm, options).evaluate(sources, references, systems)


def signature(
    refs: int,
    n: int = 4,
    beta: _Beta = 2.0,
    tokenizer: str = "word",
    norm: str = "none",
    level: str = "corpus",
    options: Optional[Mapping[str, object]] = None,
) -> str:
    """The reproducibility signature of these settings, e.g.
    ``green|n:4|beta:2|tok:word|norm:none|refs:2|level:corpus|v:0.1.0``."""
    return _scorer(tokenizer, n, beta, norm, options).signature(refs, level)
