"""The model-based metrics: ``Some`` (SOME), ``Impara`` (IMPARA), ``Scribendi`` and ``PtM2``
(PT-M2), the numbers ``green some|impara|scribendi|ptm2`` print, on weights the user gives.

A model is a directory in the layout Hugging Face's ``save_pretrained`` writes, or a Hub id
(``org/name``) found in the local Hugging Face cache (``revision=`` picks a branch, tag or
commit); nothing is downloaded. Inference is Rust (candle) on the CPU: no torch needed. They
exist in a package built with the ``neural`` feature
(``MATURIN_PEP517_ARGS="--features neural" pip install ./crates/green-py``).

``stats`` gives per-sentence scores (plain lists of dicts) that concatenate over shards in
sentence order and ``fold`` into the corpus score; ``report`` is the CLI's ``--format json``.
Each object pickles as its settings and reloads its models where it is unpickled.
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Sequence, Tuple

from . import _check, _green
from ._edits import Path, Stats, _M2Metric, _beta, _source
from ._green import GreenError, read_text
from ._score import Score
from ._scorer import MAX_INT, Lines


def _core(name: str) -> Any:
    core = getattr(_green, name, None)
    if core is None:
        raise GreenError(
            "this green_gec was built without the model-based metrics; reinstall it with them: "
            'MATURIN_PEP517_ARGS="--features neural" pip install ./crates/green-py'
        )
    return core


def _model(name: str, value: Any) -> str:
    """A model argument: a directory (str or os.PathLike) or a Hub id."""
    if not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"{name} must be a model directory or a Hub id (str or os.PathLike)")
    text = os.fspath(value)
    if not isinstance(text, str):
        raise TypeError(f"{name} must be a text path, not bytes")
    return text


def _revision(revision: Any) -> Optional[str]:
    if revision is not None and not isinstance(revision, str):
        raise TypeError("revision must be a branch, tag or commit (str)")
    return revision


def _restore(cls: type, settings: Dict[str, Any]) -> Any:
    """Unpickle: load the models again from the settings."""
    return cls(**settings)


class _Neural:
    """What the reference-free three share: settings, the core, pickling, stats and report."""

    __slots__ = ("_core", "_settings")

    _name = ""

    def __reduce__(self) -> Tuple[Any, ...]:
        return (_restore, (type(self), self._settings))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self._settings.items())})"

    def signature(self) -> str:
        """The signature the CLI prints for these models and settings."""
        return self._core.signature()

    def stats(self, *, sources: Lines, hypotheses: Lines) -> List[Dict[str, Any]]:
        """Every hypothesis's scores given its source (one per sentence, JSON- and
        pickle-friendly); concatenate shards in sentence order and pass them to ``fold``."""
        sources = _check.lines("sources", sources)
        hypotheses = _check.lines("hypotheses", hypotheses)
        _check.bom([("sources", sources), ("hypotheses", hypotheses)])
        return self._core.stats(sources, hypotheses)

    def fold(self, stats: Stats) -> Score:
        """The corpus score of statistics from ``stats`` (in sentence order)."""
        stats = list(stats)
        if not stats:
            raise GreenError("no sentences: there is nothing to score")
        data = self._core.report([stats], names=["-"])
        system = data["systems"][0]
        return Score(
            name=self._name,
            score=system[self._key],
            signature=data["signature"],
            level="mean" if self._key != "scribendi" else "corpus",
            sentences=len(stats),
            details={"sentences": system["sentences"]},
        )

    def score(self, *, sources: Lines, hypotheses: Lines) -> Score:
        """``fold(stats(...))``: the corpus score of one system."""
        return self.fold(self.stats(sources=sources, hypotheses=hypotheses))

    def report(self, systems: Sequence[Stats], *, names: Optional[Sequence[str]] = None) -> Dict[str, Any]:
        """Several systems' ``stats`` exactly as the CLI's ``--format json`` prints them."""
        return self._core.report([list(s) for s in systems], names=None if names is None else list(names))

    _key = ""


class Some(_Neural):
    """SOME (Yoshimura et al. 2020) as ``green some`` computes it: ``models`` is the directory
    the authors publish (``grammer/``, ``fluency/``, ``meaning/``) or a Hub id of one;
    ``tokenizer`` another tokenizer (file, directory or Hub id). ``score`` is the mean of the
    sentence scores (0..1, as the CLI prints it); ``details["sentences"]`` has every sentence's
    grammaticality, fluency, meaning and weighted sum."""

    __slots__ = ()
    _name, _key = "SOME", "some"

    def __init__(
        self,
        models: Path,
        *,
        tokenizer: Optional[Path] = None,
        weights: Sequence[float] = (0.55, 0.43, 0.02),
        batch_size: int = 64,
        revision: Optional[str] = None,
    ) -> None:
        w = tuple(_check.number("weights", x) for x in weights)
        if len(w) != 3:
            raise GreenError(f"weights must be three numbers (grammaticality, fluency, meaning), got {len(w)}")
        self._settings: Dict[str, Any] = dict(
            models=_model("models", models),
            tokenizer=None if tokenizer is None else _model("tokenizer", tokenizer),
            weights=w,
            batch_size=_check.integer("batch_size", batch_size, 1, MAX_INT),
            revision=_revision(revision),
        )
        s = self._settings
        self._core = _core("SomeCore")(
            s["models"], tokenizer=s["tokenizer"], weights=w, batch_size=s["batch_size"], revision=s["revision"]
        )


class Impara(_Neural):
    """IMPARA (Maeda et al. 2022) as ``green impara`` computes it: ``qe`` the quality
    estimator, ``se`` the similarity estimator (directories or Hub ids). ``score`` is the mean
    of the sentence scores; ``details["sentences"]`` has every sentence's similarity, quality
    and score."""

    __slots__ = ()
    _name, _key = "IMPARA", "impara"

    def __init__(
        self,
        qe: Path,
        se: Path,
        *,
        threshold: float = 0.9,
        batch_size: int = 32,
        revision: Optional[str] = None,
    ) -> None:
        self._settings: Dict[str, Any] = dict(
            qe=_model("qe", qe),
            se=_model("se", se),
            threshold=_check.number("threshold", threshold),
            batch_size=_check.integer("batch_size", batch_size, 1, MAX_INT),
            revision=_revision(revision),
        )
        s = self._settings
        self._core = _core("ImparaCore")(
            s["qe"], s["se"], threshold=s["threshold"], batch_size=s["batch_size"], revision=s["revision"]
        )


class Scribendi(_Neural):
    """Scribendi (Islam and Magnani 2021) as ``green scribendi`` computes it: ``model`` a GPT-2
    directory or Hub id. ``score`` is the sum of the sentence scores (−1, 0 or 1 each);
    ``details["sentences"]`` has every sentence's score and the perplexities behind it."""

    __slots__ = ()
    _name, _key = "Scribendi", "scribendi"

    def __init__(
        self,
        model: Path,
        *,
        threshold: float = 0.8,
        batch_size: int = 32,
        revision: Optional[str] = None,
    ) -> None:
        self._settings: Dict[str, Any] = dict(
            model=_model("model", model),
            threshold=_check.number("threshold", threshold),
            batch_size=_check.integer("batch_size", batch_size, 1, MAX_INT),
            revision=_revision(revision),
        )
        s = self._settings
        self._core = _core("ScribendiCore")(
            s["model"], threshold=s["threshold"], batch_size=s["batch_size"], revision=s["revision"]
        )


def _hyp_m2(path: Optional[Path], text: Optional[str]) -> Optional[Tuple[str, str]]:
    """A system's ERRANT M2 (text, the name errors give it): read from ``path``, or ``text``."""
    if path is not None and text is not None:
        raise TypeError("give the system's ERRANT M2 as hyp_m2= (a path) or hyp_m2_text=, not both")
    if text is not None:
        if not isinstance(text, str):
            raise TypeError(f"hyp_m2_text must be the M2 text (str), not {type(text).__name__}")
        return text, "hyp_m2"
    if path is None:
        return None
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError("hyp_m2 must be a path (str or os.PathLike); give M2 text as hyp_m2_text=")
    name = os.fspath(path)
    if not isinstance(name, str):
        raise TypeError("hyp_m2 must be a text path, not bytes")
    return read_text(name), name


class PtM2(_M2Metric):
    """PT-M2 (Gong et al. 2022) as ``green ptm2`` computes it, against one gold M2 file:
    ``gold`` is its path (``text=`` or :meth:`from_text` gives the M2 text), ``model`` the
    BERT directory or Hub id, ``layers`` how many of its layers BERTScore uses, ``baseline``
    bert_score's baseline file. ``score`` is the mean of the sentences' F (PT-M2's
    ``sentm2``); ``precision``, ``recall`` and ``details["corpus"]`` are the corpus-level
    weighted P/R/F and counts (``m2``); ``details["sentences"]`` every sentence's P/R/F.

    ``errant=True`` scores PT-M2's ERRANT bases as ``green ptm2 --hyp-m2`` does: the gold is
    read as ERRANT M2, and ``stats`` and ``score`` take each system's ERRANT M2 with its
    lines (``hyp_m2=`` a path, or ``hyp_m2_text=`` the text; ``green errant-parallel`` makes
    it), so ``score`` is ``senterrant`` and the corpus P/R/F ``errant``."""

    __slots__ = ()

    @staticmethod
    def _Core(text: str, name: str, **settings: Any) -> Any:
        return _core("PtM2Core")(text, name, **settings)

    def __init__(
        self,
        gold: Optional[Path] = None,
        *,
        text: Optional[str] = None,
        model: Path,
        layers: int,
        baseline: Optional[Path] = None,
        beta: float = 0.5,
        batch_size: int = 32,
        revision: Optional[str] = None,
        errant: bool = False,
    ) -> None:
        if not isinstance(errant, bool):
            raise TypeError("errant must be True or False")
        settings = dict(
            model_dir=_model("model", model),
            layers=_check.integer("layers", layers, 1, MAX_INT),
            baseline=None if baseline is None else _model("baseline", baseline),
            beta=_beta(beta),
            batch_size=_check.integer("batch_size", batch_size, 1, MAX_INT),
            revision=_revision(revision),
            errant=errant,
        )
        self._build(*_source(gold, text, "gold", "PtM2"), settings)

    @property
    def warnings(self) -> List[str]:
        """Warnings about the gold file, as the CLI prints them."""
        return self._core.warnings

    def stats(
        self,
        hypotheses: Lines,
        *,
        start: int = 0,
        hyp_m2: Optional[Path] = None,
        hyp_m2_text: Optional[str] = None,
    ) -> List[Dict[str, Any]]:
        """Sufficient statistics of one system's output lines (each annotator's weighted
        counts per sentence), the first line being gold sentence ``start``; concatenate shards
        in sentence order and pass them to ``fold``. With ``errant=True``, ``hyp_m2`` (a
        path) or ``hyp_m2_text`` is the system's ERRANT M2 of these lines."""
        hypotheses = _check.lines("hypotheses", hypotheses)
        _check.bom([("hypotheses", hypotheses)])
        m2 = _hyp_m2(hyp_m2, hyp_m2_text)
        return self._core.stats(
            hypotheses,
            start=_check.integer("start", start, 0, MAX_INT),
            m2=None if m2 is None else m2[0],
            m2_name="hyp_m2" if m2 is None else m2[1],
        )

    def fold(self, stats: Stats) -> Score:
        """PT-M2 of statistics from ``stats`` (in sentence order)."""
        stats = list(stats)
        if not stats:
            raise GreenError("no sentences: there is nothing to score")
        data = self._core.report([stats], names=["-"])
        system = data["systems"][0]
        corpus = system["corpus_score"]
        return Score(
            name="PT-M2",
            score=system["ptm2"],
            signature=data["signature"],
            level="mean",
            precision=corpus["precision"],
            recall=corpus["recall"],
            beta=self._settings["beta"],
            counts=system["corpus"],
            sentences=len(stats),
            details={"corpus": corpus, "sentences": system["sentences"]},
        )

    def score(
        self, hypotheses: Lines, *, hyp_m2: Optional[Path] = None, hyp_m2_text: Optional[str] = None
    ) -> Score:
        """``fold(stats(hypotheses))``: PT-M2 of one system (one output line per gold sentence;
        with ``errant=True`` its ERRANT M2 as ``hyp_m2`` or ``hyp_m2_text``)."""
        hypotheses = _check.lines("hypotheses", hypotheses)
        if len(hypotheses) != len(self):
            raise GreenError(
                f"hypotheses has {len(hypotheses)} lines but the gold file has {len(self)} sentences; "
                "give one output line per gold sentence"
            )
        return self.fold(self.stats(hypotheses, hyp_m2=hyp_m2, hyp_m2_text=hyp_m2_text))

    def report(self, systems: Sequence[Stats], *, names: Optional[Sequence[str]] = None) -> Dict[str, Any]:
        """Several systems' ``stats`` exactly as ``green ptm2 --format json`` prints them."""
        return self._core.report([list(s) for s in systems], names=None if names is None else list(names))


__all__ = ["Impara", "PtM2", "Scribendi", "Some"]
