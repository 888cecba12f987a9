"""GREEN for Python: the n-gram F-score for grammatical error correction, with a Rust core.

GREEN (Koyama et al., INLG 2024) scores a corrected text against the source and one or more
references by splitting every n-gram into seven regions (kept, deleted, inserted, each done
right, over or under) and computing precision, recall and F from them; no alignment needed.
The numbers are the ones the ``green`` command line prints, bit for bit.

Quick use::

    import green_gec as green
    score = green.corpus_score(sources=src, references=[ref0, ref1], hypotheses=hyp)
    print(score)            # GREEN = 72.17 (P = ..., R = ..., beta = 2)
    score.score             # 72.17...: x100, as printed

In a loop, keep one :class:`Scorer` (a Chinese or Japanese dictionary then loads once)::

    scorer = green.Scorer("word", n=4, beta=2.0)
    for name, hyps in systems.items():
        print(name, scorer.corpus_score(sources=src, references=refs, hypotheses=hyps))

Data arguments are keyword-only, so sources and hypotheses cannot be swapped. ``references``
is always a list of reference *sets* (sacrebleu's reference streams: one list per set, a
string or ``None`` per sentence); ``references_per_sentence=`` takes one list per sentence.
Scores are :class:`Score` objects (x100); data (``evaluate``, ``sentence_scores``, statistics)
stays in fractions. Bad input raises :class:`GreenError` (a ``ValueError``) with the CLI's
message, inputs of the wrong type ``TypeError``; the CLI's warnings are
:class:`GreenWarning`\\ s. Every class pickles, and the engine works in forked processes.
"""

from __future__ import annotations

from functools import lru_cache
from typing import List, Mapping, Optional, Sequence, Tuple, Union

from . import io, metric
from ._check import keyword_data
from ._edits import Cleme, Cleme2, ErrantCompare, GoToScorer, MaxMatch
from ._gleu import Gleu
from ._green import GreenError, GreenWarning, __version__, errant_parallel, tokenizer_options, tokenizers
from ._spacy import errant_typed
from ._meta import datasets, maege, meta
from ._neural import Impara, PtM2, Scribendi, Some
from ._report import HtmlReport
from ._score import Interval, Score
from ._scorer import Scorer
from ._types import CorpusResult, Evaluation, Folded, OrderCounts, SystemResult

__all__ = [
    "Cleme",
    "Cleme2",
    "CorpusResult",
    "ErrantCompare",
    "Evaluation",
    "Folded",
    "Gleu",
    "GoToScorer",
    "GreenError",
    "GreenWarning",
    "HtmlReport",
    "Impara",
    "Interval",
    "MaxMatch",
    "OrderCounts",
    "PtM2",
    "Score",
    "Scorer",
    "Scribendi",
    "Some",
    "SystemResult",
    "__version__",
    "corpus_score",
    "datasets",
    "errant_parallel",
    "errant_typed",
    "evaluate",
    "html_report",
    "io",
    "maege",
    "mean_score",
    "meta",
    "metric",
    "sentence_score",
    "sentence_scores",
    "signature",
    "tokenizer_options",
    "tokenizers",
]

_Beta = Union[float, Sequence[float]]
_Streams = Sequence[Sequence[Optional[str]]]
_PerSentence = Sequence[Sequence[str]]


def __dir__() -> List[str]:
    """The public names only (typing helpers and caches stay out of completion lists)."""
    return sorted(__all__)


@lru_cache(maxsize=16)
def _cached(
    tokenizer: str, n: int, betas: Tuple[float, ...], norm: str, opts: Tuple[Tuple[str, object], ...]
) -> Scorer:
    return Scorer(tokenizer, n=n, beta=list(betas), norm=norm, options=dict(opts))


def _scorer(tokenizer: str, n: int, beta: _Beta, norm: str, options: Optional[Mapping[str, object]]) -> Scorer:
    """A scorer for these settings; the last few are cached so dictionaries load once."""
    betas = (beta,) if isinstance(beta, (int, float)) else tuple(beta)
    opts = tuple(sorted(options.items())) if options else ()
    return _cached(tokenizer, n, betas, norm, opts)


@keyword_data("sources", "references", "hypotheses")
def corpus_score(
    *,
    sources: Sequence[str],
    hypotheses: Sequence[str],
    references: Optional[_Streams] = None,
    references_per_sentence: Optional[_PerSentence] = None,
    n: int = 4,
    beta: float = 2.0,
    tokenizer: str = "word",
    norm: str = "none",
    options: Optional[Mapping[str, object]] = None,
    n_bootstrap: int = 1,
    seed: int = 0,
    confidence: float = 0.95,
) -> Score:
    """Corpus-level GREEN of one system (:meth:`Scorer.corpus_score`). Defaults are the
    paper's wordGREEN (N=4, beta=2); use ``tokenizer="char", n=6`` for charGREEN."""
    return _scorer(tokenizer, n, beta, norm, options).corpus_score(
        sources=sources,
        references=references,
        references_per_sentence=references_per_sentence,
        hypotheses=hypotheses,
        n_bootstrap=n_bootstrap,
        seed=seed,
        confidence=confidence,
    )


@keyword_data("sources", "references", "hypotheses")
def mean_score(
    *,
    sources: Sequence[str],
    hypotheses: Sequence[str],
    references: Optional[_Streams] = None,
    references_per_sentence: Optional[_PerSentence] = None,
    n: int = 4,
    beta: float = 2.0,
    tokenizer: str = "word",
    norm: str = "none",
    options: Optional[Mapping[str, object]] = None,
) -> Score:
    """Mean of the sentence-level GREEN scores of one system (the reference's ``mgreen``)."""
    return _scorer(tokenizer, n, beta, norm, options).mean_score(
        sources=sources, references=references, references_per_sentence=references_per_sentence, hypotheses=hypotheses
    )


@keyword_data("sources", "references", "hypotheses")
def sentence_scores(
    *,
    sources: Sequence[str],
    hypotheses: Sequence[str],
    references: Optional[_Streams] = None,
    references_per_sentence: Optional[_PerSentence] = None,
    n: int = 4,
    beta: float = 2.0,
    tokenizer: str = "word",
    norm: str = "none",
    options: Optional[Mapping[str, object]] = None,
) -> List[float]:
    """Sentence-level GREEN of one system: one fraction per sentence (best reference each)."""
    return _scorer(tokenizer, n, beta, norm, options).sentence_scores(
        sources=sources, references=references, references_per_sentence=references_per_sentence, hypotheses=hypotheses
    )


@keyword_data("hypothesis", "references", "source")
def sentence_score(
    *,
    hypothesis: str,
    references: Sequence[Optional[str]],
    source: str,
    n: int = 4,
    beta: float = 2.0,
    tokenizer: str = "word",
    norm: str = "none",
    options: Optional[Mapping[str, object]] = None,
) -> Score:
    """GREEN of one sentence against its best reference (:meth:`Scorer.sentence_score`)."""
    return _scorer(tokenizer, n, beta, norm, options).sentence_score(
        hypothesis=hypothesis, references=references, source=source
    )


@keyword_data("sources", "references", "systems")
def evaluate(
    *,
    sources: Sequence[str],
    systems: Sequence[Sequence[str]],
    references: Optional[_Streams] = None,
    references_per_sentence: Optional[_PerSentence] = None,
    n: int = 4,
    beta: _Beta = 2.0,
    tokenizer: str = "word",
    norm: str = "none",
    options: Optional[Mapping[str, object]] = None,
) -> Evaluation:
    """Every level for several systems and betas at once, with per-order counts.

    Returns a plain dict of fractions (see :class:`Evaluation`): ``result["systems"][k]
    ["corpus"][b]`` is system k's corpus score at ``result["betas"][b]``; ``"mean"``,
    ``"sentence"``, ``"chosen"`` (index of the reference set chosen per sentence) and
    ``"orders"`` (per-order region counts tk..ui, TP/FP/FN and P/R/F) are laid out the same way.
    """
    return _scorer(tokenizer, n, beta, norm, options).evaluate(
        sources=sources, references=references, references_per_sentence=references_per_sentence, systems=systems
    )


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


@keyword_data("sources", "references", "systems")
def html_report(
    *,
    sources: Sequence[str],
    systems: Sequence[Sequence[str]],
    references: Optional[_Streams] = None,
    references_per_sentence: Optional[_PerSentence] = None,
    names: Optional[Sequence[str]] = None,
    metrics: Optional[Union[str, Sequence[str]]] = None,
    gold_m2: Optional[str] = None,
    n: int = 4,
    beta: float = 1.0,
    tokenizer: str = "word",
    norm: str = "none",
    options: Optional[Mapping[str, object]] = None,
    **settings: object,
) -> HtmlReport:
    """``green report`` from Python (:meth:`Scorer.html_report`): one self-contained HTML page of
    ``systems`` on one corpus, with the data behind it. Defaults are the command's (GREEN with
    N=4, beta=1; M2, ERRANT and CLEME at beta 0.5)::

        report = green.html_report(sources=src, references=[ref0, ref1], systems=[a, b],
                                   names=["A", "B"], gold_m2="gold.m2")
        report.save("report.html")      # or show `report` in a notebook; report.data is the JSON
    """
    return _scorer(tokenizer, n, beta, norm, options).html_report(
        sources=sources,
        references=references,
        references_per_sentence=references_per_sentence,
        systems=systems,
        names=names,
        metrics=metrics,
        gold_m2=gold_m2,
        **settings,  # type: ignore[arg-type]
    )
