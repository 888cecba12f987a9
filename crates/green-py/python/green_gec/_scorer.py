"""``Scorer``: GREEN with a built tokenizer and settings, reusable across calls, threads and
processes (it pickles as its settings and rebuilds its tokenizer where it lands)."""

from __future__ import annotations

import os
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from . import _check
from ._check import keyword_data
from ._green import MAX_N, GreenError, ScorerCore, bom_warning, html_report
from ._report import HtmlReport, metric_list
from ._score import Interval, Score
from ._types import Evaluation, Folded

Beta = Union[float, Sequence[float]]
Path = Union[str, "os.PathLike[str]"]
Lines = Sequence[str]
Streams = Sequence[Sequence[Optional[str]]]

# Limits shared with the CLI (`green paired --reps`).
MAX_REPS = 1_000_000
MAX_INT = 2**63 - 1


def _betas(beta: Optional[Beta]) -> Optional[List[float]]:
    """``beta`` as a list of floats (None stays None), or a TypeError naming it."""
    if beta is None:
        return None
    if isinstance(beta, (int, float)) and not isinstance(beta, bool):
        return [float(beta)]
    if isinstance(beta, (str, bytes)) or not isinstance(beta, Iterable):
        raise TypeError("beta must be a number or a list of numbers, e.g. 2.0 or [0.5, 1.0, 2.0]")
    return [_check.number("beta", b) for b in beta]


def _test_settings(reps: int, seed: int, confidence: float) -> Tuple[int, int, float]:
    _check.integer("reps", reps, 1, MAX_REPS)
    _check.integer("seed", seed, 0, 2**64 - 1)
    confidence = _check.number("confidence", confidence)
    if not 0.0 < confidence < 1.0:
        raise GreenError(f"confidence must be between 0 and 1, e.g. 0.95 (got {confidence})")
    return reps, seed, confidence


def _green_score(folded: Folded, level: str, beta: float, ci: Optional[Interval] = None) -> Score:
    """The Score of the single system and beta of ``folded``."""
    system = folded["systems"][0]
    last = system["orders"][0][-1]
    counts = tuple({k: v for k, v in row.items() if isinstance(v, int)} for row in system["orders"][0])
    corpus = level == "corpus"
    return Score(
        name="GREEN",
        score=100 * (system["corpus"][0] if corpus else system["mean"][0]),
        signature=folded["signatures"][level],
        level=level,
        precision=100 * last["cum_p"] if corpus else None,
        recall=100 * last["cum_r"] if corpus else None,
        beta=beta,
        counts=counts if corpus else None,
        sentences=folded["sentences"],
        ci=ci,
    )


class Scorer:
    """GREEN with a loaded tokenizer and settings, reusable across calls, threads and processes.

    ``tokenizer`` is a spec such as ``"word"`` (Python ``str.split()``, the default),
    ``"char"``, ``"zh"``, ``"ja"`` or ``"plugin:NAME"`` (see :func:`green_gec.tokenizers`), or
    any callable ``text -> list of str`` (spaCy, Stanza, SentencePiece...), named in the
    signature as ``py:NAME@VERSION``; ``n`` is the highest n-gram order; ``beta`` one number
    or several (default 2.0; ``inf`` = recall only); ``norm`` is ``none``, ``nfc``, ``nfkc``,
    ``lower``, ``cjk-join`` or e.g. ``nfkc+lower``; ``options`` passes tokenizer options by
    key (see :func:`green_gec.tokenizer_options`). The tokenizer is built once, here (a
    dictionary loads once); scoring releases the GIL.

    Data arguments are keyword-only. ``references`` is a list of reference *sets* (sacrebleu's
    reference streams: one list per set, one string or ``None`` per sentence);
    ``references_per_sentence`` takes one list of references per sentence instead.
    """

    __slots__ = ("_core", "_args")

    def __init__(
        self,
        tokenizer: Union[str, Callable[[str], Iterable[str]]] = "word",
        n: int = 4,
        beta: Optional[Beta] = None,
        norm: str = "none",
        options: Optional[Mapping[str, object]] = None,
    ) -> None:
        _check.integer("n", n, 1, MAX_N)
        betas = [2.0] if beta is None else _betas(beta)
        options = dict(options or {})
        self._core = ScorerCore(tokenizer, n, betas, norm, options)
        self._args = (tokenizer, n, betas, norm, options)

    def __reduce__(self) -> Tuple[Any, ...]:
        """Pickling (Spark closures, multiprocessing, Dask, Ray): a scorer travels as its
        settings and rebuilds its tokenizer where it lands."""
        return (type(self), self._args)

    def __repr__(self) -> str:
        return f"Scorer(tokenizer={self.spec!r}, n={self.n}, beta={self.betas}, norm={self.norm!r})"

    @property
    def spec(self) -> str:
        """The tokenizer spec this scorer was built from (``py:...`` for a callable)."""
        return self._core.spec

    @property
    def tokenizer(self) -> str:
        """The tokenizer's name as it appears in signatures."""
        return self._core.tokenizer

    @property
    def n(self) -> int:
        """The highest n-gram order."""
        return self._core.n

    @property
    def betas(self) -> List[float]:
        """The scorer's betas (default ``[2.0]``)."""
        return self._core.betas

    @property
    def norm(self) -> str:
        """The normalisation setting, e.g. ``"none"``."""
        return self._core.norm

    def tokenize(self, text: str) -> List[str]:
        """The tokens GREEN counts for ``text`` (after normalisation)."""
        return self._core.tokenize(text)

    def signature(self, refs: int, level: str = "corpus", beta: Optional[Beta] = None) -> str:
        """The reproducibility signature for ``refs`` references at ``level`` (``corpus``,
        ``sentence`` or ``mean``), e.g. ``green|n:4|beta:2|tok:word|norm:none|refs:2|...``."""
        _check.integer("refs", refs, 0, MAX_INT)
        return self._core.signature(refs, level, _betas(beta))

    def _one_beta(self, beta: Optional[float]) -> float:
        if beta is not None:
            return _check.number("beta", beta)
        if len(self.betas) == 1:
            return self.betas[0]
        shown = ", ".join(f"{b:g}" for b in self.betas)
        raise GreenError(
            f"this Scorer has {len(self.betas)} betas ({shown}); pass beta=... to choose one, or use "
            "evaluate() for all"
        )

    def _inputs(self, sources: Lines, references: Any, references_per_sentence: Any) -> Tuple[List[str], Streams]:
        sources = _check.lines("sources", sources)
        refs = _check.streams(sources, references, references_per_sentence)
        _check.bom([("sources", sources)] + [(f"references[{k}]", r) for k, r in enumerate(refs)])
        return sources, refs

    def _systems(self, systems: Sequence[Lines]) -> List[List[str]]:
        if isinstance(systems, str):
            systems = [systems]
        systems = list(systems)
        if any(isinstance(s, str) for s in systems):
            raise TypeError(
                "systems must be a list of hypothesis lists (one per system); for one system write "
                "systems=[hypotheses]"
            )
        out = [s if isinstance(s, list) else list(s) for s in systems]
        _check.bom([(f"systems[{k}]", s) for k, s in enumerate(out)])
        return out

    def _hypotheses(self, hypotheses: Lines) -> List[str]:
        hypotheses = _check.lines("hypotheses", hypotheses)
        _check.bom([("hypotheses", hypotheses)])
        return hypotheses

    @keyword_data("sources", "references", "hypotheses")
    def corpus_score(
        self,
        *,
        sources: Lines,
        hypotheses: Lines,
        references: Optional[Streams] = None,
        references_per_sentence: Optional[Sequence[Sequence[str]]] = None,
        beta: Optional[float] = None,
        n_bootstrap: int = 1,
        seed: int = 0,
        confidence: float = 0.95,
    ) -> Score:
        """Corpus-level GREEN of one system: per sentence the best reference, the seven region
        counts summed over the corpus, P, R and F of the sums.

        ``beta`` defaults to the scorer's only beta. With ``n_bootstrap`` > 1 (sacrebleu's
        parameter) the score carries ``ci``, the percentile bootstrap interval over that many
        resamples of sentences drawn from ``seed`` at coverage ``confidence``: the interval
        ``green paired`` prints for the same system, seed and replicates.
        """
        sources, refs = self._inputs(sources, references, references_per_sentence)
        hypotheses = self._hypotheses(hypotheses)
        b = self._one_beta(beta)
        _check.integer("n_bootstrap", n_bootstrap, 1, MAX_REPS)
        folded = self._core.summary(sources, refs, [hypotheses], [b])
        ci = None
        if n_bootstrap > 1:
            reps, seed, confidence = _test_settings(n_bootstrap, seed, confidence)
            data = self._core.bootstrap(sources, refs, hypotheses, b, reps, seed, confidence)
            ci = Interval._of(data, seed)
        return _green_score(folded, "corpus", b, ci)

    @keyword_data("sources", "references", "hypotheses")
    def mean_score(
        self,
        *,
        sources: Lines,
        hypotheses: Lines,
        references: Optional[Streams] = None,
        references_per_sentence: Optional[Sequence[Sequence[str]]] = None,
        beta: Optional[float] = None,
    ) -> Score:
        """Mean of the sentence-level GREEN scores of one system (the reference's ``mgreen``:
        NumPy's pairwise mean, to the last bit)."""
        sources, refs = self._inputs(sources, references, references_per_sentence)
        b = self._one_beta(beta)
        folded = self._core.summary(sources, refs, [self._hypotheses(hypotheses)], [b])
        return _green_score(folded, "mean", b)

    @keyword_data("sources", "references", "hypotheses")
    def sentence_scores(
        self,
        *,
        sources: Lines,
        hypotheses: Lines,
        references: Optional[Streams] = None,
        references_per_sentence: Optional[Sequence[Sequence[str]]] = None,
        beta: Optional[float] = None,
    ) -> List[float]:
        """Sentence-level GREEN of one system: one fraction (0 to 1) per sentence."""
        sources, refs = self._inputs(sources, references, references_per_sentence)
        return self._core.sentence_scores(sources, refs, self._hypotheses(hypotheses), self._one_beta(beta))

    @keyword_data("hypothesis", "references", "source")
    def sentence_score(
        self,
        *,
        hypothesis: str,
        references: Sequence[Optional[str]],
        source: str,
        beta: Optional[float] = None,
    ) -> Score:
        """GREEN of one sentence against its best reference (``references``: this sentence's
        references, ``None`` entries skipped), with that reference's P, R and per-order counts;
        ``details["chosen"]`` is its index in ``references``."""
        for name, value in (("hypothesis", hypothesis), ("source", source)):
            if not isinstance(value, str):
                raise TypeError(f"{name} must be a str (one sentence)")
        if isinstance(references, str):
            raise TypeError("references must be a list of this sentence's references, not a str")
        present = [(k, r) for k, r in enumerate(references) if r is not None]
        b = self._one_beta(beta)
        data = self._core.sentence(source, [r for _, r in present], hypothesis, b)
        last = data["orders"][-1]
        return Score(
            name="GREEN",
            score=100 * data["score"],
            signature=self._core.signature(len(present), "sentence", [b]),
            level="sentence",
            precision=100 * last["cum_p"],
            recall=100 * last["cum_r"],
            beta=b,
            counts=tuple({k: v for k, v in row.items() if isinstance(v, int)} for row in data["orders"]),
            sentences=1,
            details={"chosen": present[data["chosen"]][0]},
        )

    @keyword_data("sources", "references", "systems")
    def evaluate(
        self,
        *,
        sources: Lines,
        systems: Sequence[Lines],
        references: Optional[Streams] = None,
        references_per_sentence: Optional[Sequence[Sequence[str]]] = None,
        beta: Optional[Beta] = None,
    ) -> Evaluation:
        """Every level, every beta (default: the scorer's), every system, with per-order counts:
        a plain dict of fractions (see :class:`green_gec.Evaluation`)."""
        sources, refs = self._inputs(sources, references, references_per_sentence)
        return self._core.evaluate(sources, refs, self._systems(systems), _betas(beta))

    @keyword_data("sources", "references", "systems")
    def report(
        self,
        *,
        sources: Lines,
        systems: Sequence[Lines],
        references: Optional[Streams] = None,
        references_per_sentence: Optional[Sequence[Sequence[str]]] = None,
        level: str = "corpus",
        beta: Optional[Beta] = None,
        names: Optional[Sequence[str]] = None,
    ) -> Dict[str, Any]:
        """The dict ``green --format json --level LEVEL`` prints: scores ×100, per-order counts,
        signatures (names default to ``system1``, ``system2``, ...)."""
        sources, refs = self._inputs(sources, references, references_per_sentence)
        names = None if names is None else list(names)
        return self._core.report(sources, refs, self._systems(systems), level, _betas(beta), names)

    @keyword_data("source", "references", "systems")
    def report_files(
        self,
        *,
        source: Path,
        references: Sequence[Path],
        systems: Sequence[Path],
        level: str = "corpus",
        beta: Optional[Beta] = None,
    ) -> Dict[str, Any]:
        """``report`` of line files, named by their paths: ``green -s -r -c --format json``."""
        out, boms = self._core.report_files(
            source, _paths("references", references), _paths("systems", systems), level, _betas(beta)
        )
        _file_boms(boms)
        return out

    @keyword_data("sources", "references", "systems")
    def stats(
        self,
        *,
        sources: Lines,
        systems: Sequence[Lines],
        references: Optional[Streams] = None,
        references_per_sentence: Optional[Sequence[Sequence[str]]] = None,
        beta: Optional[Beta] = None,
    ) -> Dict[str, Any]:
        """GREEN's sufficient statistics of these sentences (a plain, JSON- and pickle-friendly
        dict). Shards of a corpus ``merge`` in corpus order into those of the whole corpus."""
        sources, refs = self._inputs(sources, references, references_per_sentence)
        return self._core.stats(sources, refs, self._systems(systems), _betas(beta))

    @keyword_data("source", "references", "systems")
    def score_files(
        self,
        *,
        source: Path,
        references: Sequence[Path],
        systems: Sequence[Path],
        beta: Optional[Beta] = None,
        start: int = 0,
        stop: Optional[int] = None,
    ) -> Folded:
        """Corpus and mean GREEN of line files read in lock step a batch at a time (the texts
        never sit in memory together); ``start``/``stop``: only those lines (0-based, ``stop``
        exclusive, as ``islice``)."""
        start, stop = _rows(start, stop)
        folded, boms = self._core.score_files(
            source, _paths("references", references), _paths("systems", systems), _betas(beta), start, stop
        )
        _file_boms(boms)
        return folded

    @keyword_data("source", "references", "systems")
    def stats_files(
        self,
        *,
        source: Path,
        references: Sequence[Path],
        systems: Sequence[Path],
        beta: Optional[Beta] = None,
        start: int = 0,
        stop: Optional[int] = None,
    ) -> Dict[str, Any]:
        """``stats`` of line files read as ``score_files`` reads them, lines ``start`` to
        ``stop``: one worker's shard of the same files."""
        start, stop = _rows(start, stop)
        stats, boms = self._core.stats_files(
            source, _paths("references", references), _paths("systems", systems), _betas(beta), start, stop
        )
        _file_boms(boms)
        return stats

    def score_rows(
        self,
        rows: Iterable[Tuple[str, Sequence[str], Sequence[str]]],
        *,
        systems: int = 1,
        beta: Optional[Beta] = None,
    ) -> Folded:
        """Corpus and mean GREEN of ``(source, [references], [hypotheses])`` rows from any
        iterable (a generator, a ``datasets`` column zip...), pulled a batch at a time."""
        _check.integer("systems", systems, 1, MAX_INT)
        return self._core.score_rows(rows, systems, _betas(beta))

    def merge(self, *shards: Mapping[str, Any]) -> Dict[str, Any]:
        """The statistics of shards given in corpus order, merged: those of one pass over all."""
        return self._core.merge(list(shards))

    def fold(self, stats: Mapping[str, Any], *, beta: Optional[Beta] = None) -> Folded:
        """Corpus and mean GREEN of statistics (from ``stats`` or ``merge``) for every system
        and beta, with per-order counts and the signature: the numbers of one pass over the
        same sentences, bit for bit. Statistics counted with other settings (tokenizer,
        normalisation, N, or betas other than ``beta``, by default the scorer's) are refused."""
        return self._core.fold(stats, _betas(beta))

    @keyword_data("sources", "references", "systems")
    def paired(
        self,
        *,
        sources: Lines,
        systems: Sequence[Lines],
        references: Optional[Streams] = None,
        references_per_sentence: Optional[Sequence[Sequence[str]]] = None,
        names: Optional[Sequence[str]] = None,
        test: str = "bs",
        reps: int = 1000,
        seed: int = 0,
        confidence: float = 0.95,
        beta: Optional[float] = None,
    ) -> Dict[str, Any]:
        """Is each system better than the first (the baseline) by more than chance? ``green
        paired``'s tests on the same sentences: paired bootstrap (``test="bs"``, with intervals,
        sacrebleu's ``--paired-bs``), approximate (``"ar"``) or exact randomisation. Returns the
        dict ``green paired --format json`` prints (numbers as fractions, as there)."""
        sources, refs = self._inputs(sources, references, references_per_sentence)
        reps, seed, confidence = _test_settings(reps, seed, confidence)
        names = None if names is None else list(names)
        return self._core.paired(
            sources, refs, self._systems(systems), names, self._one_beta(beta), test, reps, seed, confidence
        )

    @keyword_data("sources", "references", "systems")
    def html_report(
        self,
        *,
        sources: Lines,
        systems: Sequence[Lines],
        references: Optional[Streams] = None,
        references_per_sentence: Optional[Sequence[Sequence[str]]] = None,
        names: Optional[Sequence[str]] = None,
        metrics: Optional[Union[str, Sequence[str]]] = None,
        gold_m2: Optional[Path] = None,
        alternatives: str = "first",
        beta: Optional[float] = None,
        edit_beta: float = 0.5,
        reps: int = 1000,
        seed: int = 0,
        confidence: float = 0.95,
        baseline: Optional[Union[str, int]] = None,
        buckets: Optional[Sequence[int]] = None,
        title: str = "green report",
    ) -> HtmlReport:
        """``green report`` of ``systems`` with this scorer's tokenizer and N: one self-contained
        HTML page (scores with intervals and paired tests against ``baseline``, edit outcomes,
        error types, length buckets, a sentence browser) and its data. ``metrics``: ``green``,
        ``m2``, ``errant``, ``cleme`` (default GREEN, M2 when ``gold_m2`` is given, ERRANT);
        ``gold_m2``: the gold M2 file of the same sentences; ``baseline``: a name or a position
        from 1. Warnings about the input are :class:`GreenWarning`\\ s."""
        sources, refs = self._inputs(sources, references, references_per_sentence)
        reps, seed, confidence = _test_settings(reps, seed, confidence)
        edit_beta = _check.number("edit_beta", edit_beta)
        if isinstance(baseline, bool) or (baseline is not None and not isinstance(baseline, (str, int))):
            raise TypeError("baseline must be a system's name (str) or its position from 1 (int)")
        if buckets is not None and isinstance(buckets, (str, bytes)):
            raise TypeError("buckets must be a list of lengths, e.g. [10, 20, 30]")
        page, data, warnings = html_report(
            self._core,
            sources,
            refs,
            self._systems(systems),
            names=None if names is None else list(names),
            metrics=metric_list(metrics),
            gold_m2=None if gold_m2 is None else os.fspath(gold_m2),
            alternatives=alternatives,
            beta=self._one_beta(beta),
            edit_beta=edit_beta,
            reps=reps,
            seed=seed,
            confidence=confidence,
            baseline=None if baseline is None else str(baseline),
            buckets=[_check.integer("buckets", b, 1, MAX_INT) for b in buckets or []],
            title=title,
        )
        for message in warnings:
            _check.warn(message)
        return HtmlReport(page, data)

    def paired_bs(self, **data: Any) -> Dict[str, Any]:
        """``paired(test="bs", ...)``: the paired bootstrap (sacrebleu's ``--paired-bs``)."""
        return self.paired(test="bs", **data)

    def paired_ar(self, **data: Any) -> Dict[str, Any]:
        """``paired(test="ar", ...)``: approximate randomisation (sacrebleu's ``--paired-ar``)."""
        return self.paired(test="ar", **data)


def _paths(name: str, paths: Sequence[Path]) -> List[Path]:
    if isinstance(paths, (str, os.PathLike)):
        raise TypeError(f"{name} must be a list of paths, not one path; write {name}=[path]")
    return list(paths)


def _rows(start: int, stop: Optional[int]) -> Tuple[int, Optional[int]]:
    _check.integer("start", start, 0, MAX_INT)
    if stop is not None:
        _check.integer("stop", stop, 0, MAX_INT)
    return start, stop


def _file_boms(boms: Sequence[str]) -> None:
    """The CLI's warning for every file read that starts with a byte-order mark."""
    for name in boms:
        _check.warn(bom_warning(name))


__all__ = ["Scorer"]
