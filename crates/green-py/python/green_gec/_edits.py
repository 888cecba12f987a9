"""The edit-based metrics: ``MaxMatch`` (M2, the NUS m2scorer's numbers), ``ErrantCompare``
(ERRANT 3.0.2's span F) and ``Cleme`` (CLEME), each against one M2 file.

An M2 file is given by its path (``str`` or ``os.PathLike``); its text, when it is in memory,
is given by name (``text=``, or ``from_text``), so a path is never parsed as M2 text nor text
opened as a path. Each object pickles as the M2 text it was built from and its settings, so
it travels to Ray, Dask or Spark workers that do not see the file.
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import _check
from ._green import Cleme2Core, ClemeCore, ErrantCore, GoToScorerCore, GreenError, MaxMatchCore, read_text
from ._score import Score
from ._scorer import MAX_INT, Lines, _test_settings

Path = Union[str, "os.PathLike[str]"]
Stats = Sequence[Mapping[str, Any]]


def _source(path: Optional[Path], text: Optional[str], what: str, cls: str) -> Tuple[str, str]:
    """An M2 file's text and the name errors give it: read from ``path``, or ``text`` as is."""
    if (path is None) == (text is None):
        raise TypeError(f"give {what} as a path, or its M2 text as text= ({cls}.from_text)")
    if text is not None:
        if not isinstance(text, str):
            raise TypeError(f"text must be the M2 text (str), not {type(text).__name__}")
        return text, what
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{what} must be a path (str or os.PathLike); give M2 text as text=")
    name = os.fspath(path)
    if not isinstance(name, str):
        raise TypeError(f"{what} must be a text path, not bytes")
    if "\n" in name and not os.path.exists(name):
        raise GreenError(
            f"{what}: no file named {name.splitlines()[0][:40]!r}...: this looks like M2 text; pass it "
            f"as text=... (or {cls}.from_text(...))"
        )
    return read_text(name), name


def _restore(cls: type, text: str, name: str, settings: Dict[str, Any]) -> Any:
    """Unpickle: rebuild from the M2 text, without warning again about it."""
    obj = cls.__new__(cls)
    obj._build(text, name, settings, warn=False)
    return obj


def _beta(beta: Any) -> float:
    beta = _check.number("beta", beta)
    if not (beta >= 0 and beta != float("inf")):
        raise GreenError(f"beta must be a finite number >= 0 (got {beta})")
    return beta


class _M2Metric:
    """What the three share: the M2 text, settings, the core, pickling, paired tests."""

    __slots__ = ("_core", "_text", "_name", "_settings")

    _Core: Any = None
    _what = "reference"

    def _build(self, text: str, name: str, settings: Dict[str, Any], warn: bool = True) -> None:
        self._core = self._Core(text, name, **settings)
        self._text, self._name, self._settings = text, name, settings
        if warn:
            for message in getattr(self._core, "warnings", []):
                _check.warn(message)

    @classmethod
    def from_text(cls: Any, text: str, **settings: Any) -> Any:
        """The metric against M2 text in memory (``cls(text=text, **settings)``)."""
        return cls(text=text, **settings)

    def __reduce__(self) -> Tuple[Any, ...]:
        return (_restore, (type(self), self._text, self._name, self._settings))

    def __len__(self) -> int:
        """Number of sentences in the M2 file."""
        return len(self._core)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._name!r}, {', '.join(f'{k}={v!r}' for k, v in self._settings.items())})"

    def signature(self) -> str:
        """The signature the CLI prints for these settings."""
        return self._core.signature()

    def _paired(self, a: Stats, b: Stats, test: str, reps: int, seed: int, confidence: float, **extra: Any) -> Dict[str, Any]:
        reps, seed, confidence = _test_settings(reps, seed, confidence)
        return self._core.paired(list(a), list(b), test=test, reps=reps, seed=seed, confidence=confidence, **extra)


class MaxMatch(_M2Metric):
    """M2 (MaxMatch) exactly as the NUS m2scorer and ``green maxmatch`` compute it, against one
    gold M2 file: ``gold`` is its path; ``text=`` (or :meth:`from_text`) gives the M2 text.

    The options are the original's; ``alternatives`` is ``"first"`` or ``"pool"`` for
    ChERRANT target lines; ``tokenizer`` (default: the original's whitespace split) tokenizes
    raw system output, e.g. ``"char"`` for NLPCC-style Chinese. ``stats`` gives per-sentence
    statistics (plain lists/dicts) that ``fold`` turns into the corpus score, shard by shard in
    sentence order. Warnings about the gold file are :class:`green_gec.GreenWarning`\\ s."""

    __slots__ = ()
    _Core = MaxMatchCore

    def __init__(
        self,
        gold: Optional[Path] = None,
        *,
        text: Optional[str] = None,
        beta: float = 0.5,
        max_unchanged_words: int = 2,
        ignore_whitespace_casing: bool = False,
        alternatives: str = "first",
        tokenizer: Optional[str] = None,
        norm: str = "none",
        options: Optional[Mapping[str, object]] = None,
    ) -> None:
        settings = dict(
            beta=_beta(beta),
            max_unchanged_words=_check.integer("max_unchanged_words", max_unchanged_words, -MAX_INT, MAX_INT),
            ignore_whitespace_casing=bool(ignore_whitespace_casing),
            alternatives=alternatives,
            tokenizer=tokenizer,
            norm=norm,
            options=dict(options or {}),
        )
        self._build(*_source(gold, text, "gold", "MaxMatch"), settings)

    @property
    def warnings(self) -> List[str]:
        """Warnings about the gold file (edits past their sentence), as the CLI prints them."""
        return self._core.warnings

    def _score(self, data: Mapping[str, Any], sentences: int) -> Score:
        return Score(
            name="M2",
            score=100 * data["f"],
            signature=data["signature"],
            precision=100 * data["precision"],
            recall=100 * data["recall"],
            beta=self._settings["beta"],
            counts={k: data[k] for k in ("correct", "proposed", "gold")},
            sentences=sentences,
        )

    def score(self, hypotheses: Lines) -> Score:
        """Corpus M2 of one system (one output line per gold sentence): F as ``score``, P, R
        and the counts (``correct``, ``proposed``, ``gold``)."""
        hypotheses = _check.lines("hypotheses", hypotheses)
        return self._score(self._core.score(hypotheses), len(hypotheses))

    def sentences(self, hypotheses: Lines) -> List[Dict[str, Any]]:
        """Per sentence: the annotator chosen, its counts and the system's edits as matched
        against the gold edits."""
        return self._core.sentences(_check.lines("hypotheses", hypotheses))

    def stats(self, hypotheses: Lines) -> List[Dict[str, Any]]:
        """Sufficient statistics, one entry per sentence (JSON- and pickle-friendly);
        concatenate shards in sentence order and pass them to ``fold``."""
        return self._core.stats(_check.lines("hypotheses", hypotheses))

    def fold(self, stats: Stats) -> Score:
        """The corpus score of statistics from ``stats`` (in sentence order): the greedy
        annotator choice runs here, so it equals ``score`` on the whole corpus."""
        stats = list(stats)
        return self._score(self._core.fold(stats), len(stats))

    def paired(self, a: Stats, b: Stats, *, test: str = "bs", reps: int = 1000, seed: int = 0, confidence: float = 0.95) -> Dict[str, Any]:
        """Is system B's M2 different from baseline A's by more than chance? Paired bootstrap
        (``test="bs"``), approximate (``"ar"``) or exact randomisation of the two systems'
        ``stats``: ``green paired``'s result (``a``, ``b``, ``delta``, ``p``, ``replicates``,
        ``intervals``), as fractions."""
        return self._paired(a, b, test, reps, seed, confidence)

    def report(self, systems: Sequence[Stats], *, names: Optional[Sequence[str]] = None, verbose: bool = False) -> Dict[str, Any]:
        """Several systems' ``stats`` exactly as ``green maxmatch --format json [-v]`` prints them."""
        return self._core.report(list(systems), names=None if names is None else list(names), verbose=verbose)


def _cat(cat: int) -> int:
    return _check.integer("cat", cat, 1, 3)


class ErrantCompare(_M2Metric):
    """ERRANT's span-based F exactly as ERRANT 3.0.2's ``errant_compare`` and ``green
    errant-compare`` compute it, against one reference M2 file: ``reference`` is its path;
    ``text=`` (or :meth:`from_text`) gives the M2 text.

    ``mode`` is ``"cs"`` (span + correction, the default), ``"cse"`` (+ type), ``"ds"`` (span
    detection) or ``"dt"`` (token detection); ``single``, ``multi`` and ``filter`` are the
    original's ``-single``, ``-multi`` and ``-filt``; ``cherrant=True`` is ChERRANT's scorer.
    Scores are unrounded (the original prints them rounded to 4 decimals)."""

    __slots__ = ()
    _Core = ErrantCore

    def __init__(
        self,
        reference: Optional[Path] = None,
        *,
        text: Optional[str] = None,
        beta: float = 0.5,
        mode: str = "cs",
        single: bool = False,
        multi: bool = False,
        filter: Sequence[str] = (),
        cherrant: bool = False,
    ) -> None:
        if isinstance(filter, str):
            raise TypeError("filter must be a list of error types, not a str")
        settings = dict(beta=_beta(beta), mode=mode, single=bool(single), multi=bool(multi), filter=list(filter), cherrant=bool(cherrant))
        self._build(*_source(reference, text, "reference", "ErrantCompare"), settings)

    def stats(self, hypothesis: Optional[Path] = None, *, text: Optional[str] = None) -> List[Dict[str, Any]]:
        """Sufficient statistics of a hypothesis M2 file (its path, or ``text=``), one entry
        per sentence (every annotator pair's counts); concatenate shards in order for ``fold``."""
        return self._core.stats(*_source(hypothesis, text, "hypothesis", "ErrantCompare"))

    def fold(self, stats: Stats, *, cat: int = 3) -> Score:
        """Corpus TP, FP, FN, P, R, F of statistics from ``stats`` (the greedy pair choice runs
        here), with per-type counts at ``cat`` level 1, 2 or 3 in ``details["categories"]``."""
        stats = list(stats)
        data = self._core.fold(stats, _cat(cat))
        return Score(
            name="ERRANT",
            score=100 * data["f"],
            signature=data["signature"],
            precision=100 * data["p"],
            recall=100 * data["r"],
            beta=self._settings["beta"],
            counts={k: data[k] for k in ("tp", "fp", "fn")},
            sentences=len(stats),
            details={"categories": data["categories"]},
        )

    def score(self, hypothesis: Optional[Path] = None, *, text: Optional[str] = None, cat: int = 3) -> Score:
        """``fold(stats(hypothesis))``: the score of one hypothesis M2 file."""
        return self.fold(self.stats(hypothesis, text=text), cat=cat)

    def paired(self, a: Stats, b: Stats, *, test: str = "bs", reps: int = 1000, seed: int = 0, confidence: float = 0.95) -> Dict[str, Any]:
        """``green paired``'s tests of two systems' ``stats`` (see :meth:`MaxMatch.paired`)."""
        return self._paired(a, b, test, reps, seed, confidence)

    def report(self, systems: Sequence[Stats], *, names: Optional[Sequence[str]] = None, cat: int = 3, verbose: bool = False) -> Dict[str, Any]:
        """Several systems' ``stats`` exactly as ``green errant-compare --format json`` prints them."""
        return self._core.report(list(systems), names=None if names is None else list(names), cat=_cat(cat), verbose=verbose)


# CLEME's report rows as the paper names them: (name, variant, row, level).
_CLEME_ROWS = [
    (f"{prefix}-{variant}{suffix}", variant, f"{row}{suffix.replace('-', '_')}", level)
    for prefix, row, level in [("CLEME", "corpus", "corpus"), ("SentCLEME", "sentence", "mean")]
    for variant in ["dependent", "independent"]
    for suffix in ["", "-unweighted"]
]


class Cleme(_M2Metric):
    """CLEME (Ye et al. 2023) as ``green cleme`` computes it, against one reference M2 file:
    ``reference`` is its path; ``text=`` (or :meth:`from_text`) gives the M2 text.

    ``score`` is CLEME-dependent (length-weighted corpus F); ``details["rows"]`` has all eight
    of the paper's rows (dependent and independent, corpus and SentCLEME, weighted and
    unweighted) as scores, unrounded."""

    __slots__ = ()
    _Core = ClemeCore

    def __init__(self, reference: Optional[Path] = None, *, text: Optional[str] = None, beta: float = 0.5, merge_distance: int = 0) -> None:
        settings = dict(beta=_beta(beta), merge_distance=_check.integer("merge_distance", merge_distance, 0, MAX_INT))
        self._build(*_source(reference, text, "reference", "Cleme"), settings)

    def stats(self, hypothesis: Optional[Path] = None, *, text: Optional[str] = None) -> List[Dict[str, Any]]:
        """Sufficient statistics of a hypothesis M2 file (its path, or ``text=``), one entry
        per sentence; concatenate shards in order for ``fold``."""
        return self._core.stats(*_source(hypothesis, text, "hypothesis", "Cleme"))

    def fold(self, stats: Stats) -> Score:
        """CLEME of statistics from ``stats`` (in sentence order)."""
        stats = list(stats)
        data = self._core.fold(stats)
        beta = self._settings["beta"]
        rows = {}
        for name, variant, row, level in _CLEME_ROWS:
            r = data[variant][row]
            rows[name] = Score(
                name=name,
                score=100 * r["f"],
                signature=data["signature"],
                level=level,
                precision=100 * r["p"],
                recall=100 * r["r"],
                beta=beta,
                counts={k: r[k] for k in ("tp", "fp", "fn", "tn")},
                sentences=data["sentences"],
                details={"accuracy": 100 * r["acc"]},
            )
        head = rows["CLEME-dependent"]
        return Score(
            name=head.name,
            score=head.score,
            signature=head.signature,
            precision=head.precision,
            recall=head.recall,
            beta=beta,
            counts=head.counts,
            sentences=head.sentences,
            details={"rows": rows, "mean_length": data["mean_length"]},
        )

    def score(self, hypothesis: Optional[Path] = None, *, text: Optional[str] = None) -> Score:
        """``fold(stats(hypothesis))``."""
        return self.fold(self.stats(hypothesis, text=text))

    def paired(
        self,
        a: Stats,
        b: Stats,
        *,
        test: str = "bs",
        reps: int = 1000,
        seed: int = 0,
        confidence: float = 0.95,
        independent: bool = False,
    ) -> Dict[str, Any]:
        """``green paired``'s tests of two systems' ``stats`` on CLEME-dependent (or
        ``independent=True``), length-weighted corpus F."""
        return self._paired(a, b, test, reps, seed, confidence, independent=independent)

    def report(self, systems: Sequence[Stats], *, names: Optional[Sequence[str]] = None) -> Dict[str, Any]:
        """Several systems' ``stats`` exactly as ``green cleme --format json`` prints them."""
        return self._core.report(list(systems), names=None if names is None else list(names))


def _factors(what: str, f: Any) -> Tuple[float, float, float, float]:
    values = tuple(_check.number(what, x) for x in f)
    if len(values) != 4:
        raise GreenError(f"{what} must be four numbers (hit, err, und, ove), got {len(values)}")
    return values  # type: ignore[return-value]


class Cleme2(_M2Metric):
    """CLEME2.0 (Ye et al. 2025) as ``green cleme2`` computes it, against one reference M2
    file: ``reference`` is its path; ``text=`` (or :meth:`from_text`) gives the M2 text.

    ``weigher`` is ``"length"`` (the repository's length weigher, the default) or ``"none"``;
    similarity weights need ``green cleme2 --similarities``. ``score`` is the corpus com of
    CLEME2-dependent (weighted with the weigher), times 100; ``details["rows"]`` has all eight
    rows (dependent and independent, corpus and SentCLEME2, unweighted and weighted) as
    scores whose ``details`` hold the four rates and com, unrounded."""

    __slots__ = ()
    _Core = Cleme2Core

    def __init__(
        self,
        reference: Optional[Path] = None,
        *,
        text: Optional[str] = None,
        merge_distance: int = 0,
        weigher: str = "length",
        corpus_factors: Sequence[float] = (0.45, 0.35, 0.15, 0.05),
        sentence_factors: Sequence[float] = (0.35, 0.25, 0.2, 0.2),
    ) -> None:
        settings = dict(
            merge_distance=_check.integer("merge_distance", merge_distance, 0, MAX_INT),
            weigher=weigher,
            corpus_factors=_factors("corpus_factors", corpus_factors),
            sentence_factors=_factors("sentence_factors", sentence_factors),
        )
        self._build(*_source(reference, text, "reference", "Cleme2"), settings)

    def stats(self, hypothesis: Optional[Path] = None, *, text: Optional[str] = None) -> List[Dict[str, Any]]:
        """Sufficient statistics of a hypothesis M2 file (its path, or ``text=``), one entry
        per sentence; concatenate shards in order for ``fold``."""
        return self._core.stats(*_source(hypothesis, text, "hypothesis", "Cleme2"))

    def fold(self, stats: Stats) -> Score:
        """CLEME2.0 of statistics from ``stats`` (in sentence order)."""
        data = self._core.fold(list(stats))
        weighted = self._settings["weigher"] != "none"
        rows = {}
        for name, r in data["rows"]:
            rows[name] = Score(
                name=name,
                score=100 * r["com"],
                signature=data["signature"],
                level="mean" if name.startswith("Sent") else "corpus",
                counts={k: r[k] for k in ("tp", "fp", "fn", "tn", "fp_ne", "fp_un")},
                sentences=data["sentences"],
                details={k: r[k] for k in ("hit", "err", "und", "ove", "com")},
            )
        head = rows["CLEME2-dependent-weighted" if weighted else "CLEME2-dependent"]
        return Score(
            name=head.name,
            score=head.score,
            signature=head.signature,
            counts=head.counts,
            sentences=head.sentences,
            details={"rows": rows, "mean_length": data["mean_length"]},
        )

    def score(self, hypothesis: Optional[Path] = None, *, text: Optional[str] = None) -> Score:
        """``fold(stats(hypothesis))``."""
        return self.fold(self.stats(hypothesis, text=text))

    def paired(
        self,
        a: Stats,
        b: Stats,
        *,
        test: str = "bs",
        reps: int = 1000,
        seed: int = 0,
        confidence: float = 0.95,
        independent: bool = False,
    ) -> Dict[str, Any]:
        """``green paired``'s tests of two systems' ``stats`` on the corpus com, dependent (or
        ``independent=True``), with the object's weigher."""
        return self._paired(a, b, test, reps, seed, confidence, independent=independent)

    def report(self, systems: Sequence[Stats], *, names: Optional[Sequence[str]] = None) -> Dict[str, Any]:
        """Several systems' ``stats`` exactly as ``green cleme2 --format json`` prints them."""
        return self._core.report(list(systems), names=None if names is None else list(names))


class GoToScorer(_M2Metric):
    """GoToScorer (Gotou et al. 2020) as ``green gotoscorer`` computes it, against reference
    ``ref_id`` of one M2 file: ``reference`` is its path; ``text=`` (or :meth:`from_text`)
    gives the M2 text. ``weights`` is a weight file's path (``green gotoscorer-weights``, or
    gec-metrics' generator); without it every chunk weighs 1. ``score`` is F_beta times 100;
    ``details["sentence_f"]`` has every sentence's F."""

    __slots__ = ()
    _Core = GoToScorerCore

    def __init__(
        self,
        reference: Optional[Path] = None,
        *,
        text: Optional[str] = None,
        beta: float = 0.5,
        ref_id: int = 0,
        weights: Optional[Path] = None,
    ) -> None:
        settings: Dict[str, Any] = dict(beta=_beta(beta), ref_id=_check.integer("ref_id", ref_id, -MAX_INT, MAX_INT))
        if weights is not None:
            if not isinstance(weights, (str, os.PathLike)):
                raise TypeError("weights must be the path of a weight file (str or os.PathLike)")
            settings["weights"] = read_text(os.fspath(weights))
        self._build(*_source(reference, text, "reference", "GoToScorer"), settings)

    def __repr__(self) -> str:
        shown = {k: ("<file>" if k == "weights" else v) for k, v in self._settings.items()}
        return f"GoToScorer({self._name!r}, {', '.join(f'{k}={v!r}' for k, v in shown.items())})"

    def stats(self, hypothesis: Optional[Path] = None, *, text: Optional[str] = None) -> List[Dict[str, Any]]:
        """Sufficient statistics of a hypothesis M2 file (its path, or ``text=``), one entry
        per sentence (chunk weights included); concatenate shards in order for ``fold``."""
        return self._core.stats(*_source(hypothesis, text, "hypothesis", "GoToScorer"))

    def fold(self, stats: Stats) -> Score:
        """GoToScorer of statistics from ``stats`` (in sentence order)."""
        data = self._core.fold(list(stats))
        c = data["corpus"]
        return Score(
            name="GoToScorer",
            score=100 * c["f"],
            signature=data["signature"],
            precision=100 * c["p"],
            recall=100 * c["r"],
            beta=self._settings["beta"],
            counts={k: c[k] for k in ("tp", "fp", "fn", "tn")},
            sentences=data["sentences"],
            details={"sentence_f": data["sentence_f"]},
        )

    def score(self, hypothesis: Optional[Path] = None, *, text: Optional[str] = None) -> Score:
        """``fold(stats(hypothesis))``."""
        return self.fold(self.stats(hypothesis, text=text))

    def paired(
        self, a: Stats, b: Stats, *, test: str = "bs", reps: int = 1000, seed: int = 0, confidence: float = 0.95
    ) -> Dict[str, Any]:
        """``green paired``'s tests of two systems' ``stats`` on GoToScorer's F."""
        return self._paired(a, b, test, reps, seed, confidence)

    def report(self, systems: Sequence[Stats], *, names: Optional[Sequence[str]] = None) -> Dict[str, Any]:
        """Several systems' ``stats`` exactly as ``green gotoscorer --format json`` prints them."""
        return self._core.report(list(systems), names=None if names is None else list(names))


__all__ = ["Cleme", "Cleme2", "ErrantCompare", "GoToScorer", "MaxMatch"]
