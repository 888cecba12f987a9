"""The shapes of :func:`green.evaluate`'s result: plain dicts, typed for editors and mypy."""

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


class SystemResult(TypedDict):
    """One system's results; every outer list is indexed like ``Evaluation["betas"]``."""

    corpus: List[float]
    mean: List[float]
    sentence: List[List[float]]
    chosen: List[List[int]]
    orders: List[List[OrderCounts]]


class Evaluation(TypedDict):
    """What :func:`green.evaluate` and :meth:`green.Scorer.evaluate` return."""

    signature: str
    signatures: Dict[str, str]
    n: int
    betas: List[float]
    alphas: List[float]
    tokenizer: str
    norm: str
    refs: int
    sentences: int
    systems: List[SystemResult]
