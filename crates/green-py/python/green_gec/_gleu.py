"""``Gleu``: the official GLEU (Napoles et al.), as ``green gleu`` and the PyPI package
``gleu --fix-seed`` compute it, on GREEN's tokenizers."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from . import _check
from ._check import keyword_data
from ._green import MAX_N, GleuCore
from ._score import Score
from ._scorer import Lines, Streams, _test_settings

# `green gleu --iterations` accepts at most this many reference draws.
MAX_ITERATIONS = 100_000


class Gleu:
    """GLEU exactly as ``green gleu`` computes it: corpus GLEU averages ``iterations``
    reference draws on the documented generator (CPython's Mersenne Twister seeded with
    101·i), sentence GLEU averages over references (or takes the best with ``max=True``).
    ``tokenizer``, ``norm`` and ``options`` are as for :class:`green_gec.Scorer`; word and
    char give the package's numbers. Data arguments are keyword-only; ``references`` is one
    list per reference set (``references_per_sentence=`` for the other layout)."""

    __slots__ = ("_core", "_args")

    def __init__(
        self,
        tokenizer: str = "word",
        n: int = 4,
        iterations: int = 500,
        norm: str = "none",
        options: Optional[Mapping[str, object]] = None,
    ) -> None:
        _check.integer("n", n, 1, MAX_N)
        _check.integer("iterations", iterations, 1, MAX_ITERATIONS)
        options = dict(options or {})
        self._core = GleuCore(tokenizer, n, iterations, norm, options)
        self._args = (tokenizer, n, iterations, norm, options)

    def __reduce__(self) -> Tuple[Any, ...]:
        """Pickling: a Gleu travels as its settings and rebuilds its tokenizer where it lands."""
        return (type(self), self._args)

    def __repr__(self) -> str:
        tokenizer, n, iterations, norm, _ = self._args
        return f"Gleu(tokenizer={tokenizer!r}, n={n}, iterations={iterations}, norm={norm!r})"

    def _data(
        self, sources: Lines, references: Any, references_per_sentence: Any, hypotheses: Lines
    ) -> Tuple[List[str], List[List[Optional[str]]], List[str]]:
        sources = _check.lines("sources", sources)
        refs = _check.streams(sources, references, references_per_sentence)
        hypotheses = _check.lines("hypotheses", hypotheses)
        _check.bom(
            [("sources", sources), ("hypotheses", hypotheses)]
            + [(f"references[{k}]", r) for k, r in enumerate(refs)]
        )
        return sources, refs, hypotheses

    @staticmethod
    def _score(result: Tuple[float, str], level: str, sentences: Optional[int] = None) -> Score:
        score, signature = result
        return Score(name="GLEU", score=100 * score, signature=signature, level=level, sentences=sentences)

    @keyword_data("sources", "references", "hypotheses")
    def corpus_score(
        self,
        *,
        sources: Lines,
        hypotheses: Lines,
        references: Optional[Streams] = None,
        references_per_sentence: Optional[Sequence[Sequence[str]]] = None,
        max: bool = False,
    ) -> Score:
        """Corpus GLEU of one system: references drawn per iteration, or each sentence's best
        with ``max=True``."""
        data = self._data(sources, references, references_per_sentence, hypotheses)
        return self._score(self._core.corpus_score(*data, max), "corpus", len(data[0]))

    @keyword_data("sources", "references", "hypotheses")
    def mean_score(
        self,
        *,
        sources: Lines,
        hypotheses: Lines,
        references: Optional[Streams] = None,
        references_per_sentence: Optional[Sequence[Sequence[str]]] = None,
        max: bool = False,
    ) -> Score:
        """Mean of the sentence GLEU scores of one system (NumPy's mean, as ``mgleu``)."""
        data = self._data(sources, references, references_per_sentence, hypotheses)
        return self._score(self._core.mean_score(*data, max), "mean", len(data[0]))

    @keyword_data("sources", "references", "hypotheses")
    def sentence_scores(
        self,
        *,
        sources: Lines,
        hypotheses: Lines,
        references: Optional[Streams] = None,
        references_per_sentence: Optional[Sequence[Sequence[str]]] = None,
        max: bool = False,
    ) -> List[float]:
        """Sentence GLEU of one system: one fraction per sentence."""
        data = self._data(sources, references, references_per_sentence, hypotheses)
        return self._core.sentence_scores(*data, max)

    @keyword_data("sources", "references", "hypotheses")
    def stats(
        self,
        *,
        sources: Lines,
        hypotheses: Lines,
        references: Optional[Streams] = None,
        references_per_sentence: Optional[Sequence[Sequence[str]]] = None,
    ) -> List[Dict[str, Any]]:
        """Every sentence's GLEU statistics of one system (plain dicts: pickle, JSON, Dask):
        statistics of consecutive shards concatenate in corpus order, and ``fold`` scores them
        with the numbers of one pass (the reference draws run over the whole list)."""
        return self._core.stats(*self._data(sources, references, references_per_sentence, hypotheses))

    def fold(self, stats: Sequence[Mapping[str, Any]], *, level: str = "corpus", max: bool = False) -> Score:
        """Corpus (sampled, or ``max=True``) or mean GLEU of statistics from ``stats``,
        concatenated in corpus order: ``corpus_score``'s or ``mean_score``'s score for those
        sentences."""
        stats = list(stats)
        return self._score(self._core.fold(stats, level, max), level, len(stats))

    def paired(
        self,
        a: Sequence[Mapping[str, Any]],
        b: Sequence[Mapping[str, Any]],
        *,
        test: str = "bs",
        reps: int = 1000,
        seed: int = 0,
        confidence: float = 0.95,
        max: bool = False,
    ) -> Dict[str, Any]:
        """Is system B's GLEU different from baseline A's by more than chance? Paired bootstrap
        (``test="bs"``), approximate (``"ar"``) or exact randomisation of the two systems'
        ``stats`` on the same sentences; each replicate folds as ``fold`` does. Returns ``a``,
        ``b``, ``delta``, ``p``, ``replicates`` (and ``intervals``), as fractions."""
        reps, seed, confidence = _test_settings(reps, seed, confidence)
        return self._core.paired(list(a), list(b), test=test, reps=reps, seed=seed, confidence=confidence, max=max)

    def report(
        self,
        systems: Sequence[Sequence[Mapping[str, Any]]],
        *,
        names: Optional[Sequence[str]] = None,
        level: str = "corpus",
        max: bool = False,
    ) -> Dict[str, Any]:
        """Several systems' ``stats`` exactly as ``green gleu --format json`` prints them (names
        default to ``system1``, ``system2``, ...)."""
        names = None if names is None else list(names)
        return self._core.report(systems, names=names, level=level, max=max)

    def signature(self, refs: str, level: str = "corpus", max: bool = False) -> str:
        """The signature ``green gleu --format json`` prints for these settings with ``refs``
        references per sentence (a count, or ``var``)."""
        return self._core.signature(str(refs), level, max)


__all__ = ["Gleu"]
