"""The shapes of :func:`green_gec.evaluate`'s result: plain dicts, typed for editors and mypy."""

from __future__ import annotations

from typing import Dict, List, TypedDict


class OrderCounts(TypedDict):
    """Corpus-level counts and scores of one n-gram order (one row of ``green -v``)."""

    order: int
    tk: int
    td: int
    ti: int
    od: int
    oi: int
    ud: int
    ui: int
    tp: int
    fp: int
    fn: int
    p: float
    r: float
    f: float
    cum_p: float
    cum_r: float
    cum_f: float


class CorpusResult(TypedDict):
    """One system's corpus-level results; every outer list is indexed like ``Evaluation["betas"]``."""

    corpus: List[float]
    mean: List[float]
    orders: List[List[OrderCounts]]


class SystemResult(CorpusResult):
    """One system's results, with every sentence's score and chosen reference set."""

    sentence: List[List[float]]
    chosen: List[List[int]]


class _Header(TypedDict):

    signature: str
    signatures: Dict[str, str]
    n: int
    betas: List[float]
    alphas: List[float]
    tokenizer: str
    norm: str
    refs: int
    sentences: int


class Evaluation(_Header):
    """What :func:`green_gec.evaluate` and :meth:`green_gec.Scorer.evaluate` return."""

    systems: List[SystemResult]


class Folded(_Header):
    """What :meth:`green_gec.Scorer.fold` returns: corpus-level results of merged statistics."""

    systems: List[CorpusResult]
