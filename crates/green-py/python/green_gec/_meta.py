"""``meta`` and ``maege``: how well metric configurations agree with people (``green meta``) or
with the gold edits of an M2 file (``green maege``), from Python, the report as data.

Both return the dict their command prints with ``--format json``, so a sweep can be driven,
filtered and plotted from a notebook with the CLI's numbers. Every combination of the given
tokenizers, levels, N and betas is one row, then GLEU, M2, ERRANT and CLEME rows when asked,
exactly as the CLI builds them.
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Sequence, Union

from . import _check
from ._green import MAX_N, GreenError
from ._green import datasets as _builtin
from ._green import maege as _maege
from ._green import meta as _meta

Path = Union[str, "os.PathLike[str]"]

# The CLI's limits (green-cli's `limits`), so a run from Python is one the CLI accepts.
MAX_GLEU_ITERATIONS = 10_000
MAX_TS_RUNS = 100_000
MAX_WINDOW = 1000
MAX_MAEGE_REPS = 1000
MAX_M = 100
MAX_BOOTSTRAP = 1_000_000


def _names(values: Any) -> List[str]:
    if isinstance(values, str):
        return [values]
    return [str(v) for v in values]


def _grid(
    tokenizers: Any, n: Any, beta: Any, levels: Any, norm: str, gleu: bool, m2: bool, edits: bool, gleu_iterations: int, seed: int,
    cleme2: bool = False,
) -> Dict[str, Any]:
    ns = [] if n is None else [n] if isinstance(n, int) else list(n)
    for value in ns:
        _check.integer("n", value, 1, MAX_N)
    betas = [beta] if isinstance(beta, (int, float)) else list(beta)
    for value in betas:
        if _check.number("beta", value) < 0:
            raise GreenError(f"beta must be >= 0 (got {value})")
    return dict(
        tokenizers=_names(tokenizers),
        n=ns,
        betas=[float(b) for b in betas],
        levels=_names(levels),
        norm=norm,
        gleu=bool(gleu),
        m2=bool(m2),
        edits=bool(edits),
        cleme2=bool(cleme2),
        gleu_iterations=_check.integer("gleu_iterations", gleu_iterations, 1, MAX_GLEU_ITERATIONS),
        seed=_check.integer("seed", seed, 0, 2**64 - 1),
    )


def datasets() -> List[str]:
    """The built-in dataset descriptors (GJG15, SEEDA, RevisitCGEC...) ``meta`` knows by name."""
    return _builtin()


def meta(
    datasets: Union[str, Sequence[str]] = ("gjg15", "seeda", "revisitcgec-minimal", "revisitcgec-fluency"),
    *,
    data: Path,
    tokenizers: Union[str, Sequence[str]] = ("word", "char"),
    n: Union[None, int, Sequence[int]] = None,
    beta: Union[float, Sequence[float]] = 2.0,
    levels: Union[str, Sequence[str]] = "corpus",
    norm: str = "none",
    gleu: bool = False,
    m2: bool = False,
    edits: bool = False,
    cleme2: bool = False,
    gleu_iterations: int = 500,
    human: str = "ew",
    ties: str = "denominator",
    ts_runs: int = 1000,
    seed: int = 0,
    windows: Sequence[int] = (4, 8),
    bootstrap: Optional[int] = None,
    confidence: float = 0.95,
    williams: bool = False,
    permutation: bool = False,
    preset: Optional[str] = None,
) -> Dict[str, Any]:
    """``green meta --format json``: correlations of every metric configuration with human
    judgments on each dataset (built-in names, see :func:`datasets`, or descriptor TOML
    files), ``data`` the directory their paths are relative to (``../shared/data``).

    The keywords are the CLI's options (``n`` None: 6 for char tokenizers, else 4; ``cleme2``:
    CLEME2.0 and GoToScorer rows, ``--cleme2``); the result
    has ``columns`` (dataset, view, system set, level, statistic), ``rows`` (one per
    configuration: ``label``, ``values`` in column order, ``system_scores``...) and ``human``
    (the human system scores)."""
    confidence = _check.number("confidence", confidence)
    settings = dict(
        datasets=_names(datasets),
        data=os.fspath(data),
        **_grid(tokenizers, n, beta, levels, norm, gleu, m2, edits, gleu_iterations, seed, cleme2),
        human=human,
        ties=ties,
        ts_runs=_check.integer("ts_runs", ts_runs, 1, MAX_TS_RUNS),
        windows=[_check.integer("windows", w, 1, MAX_WINDOW) for w in windows],
        bootstrap=None if bootstrap is None else _check.integer("bootstrap", bootstrap, 1, MAX_BOOTSTRAP),
        confidence=confidence,
        williams=bool(williams),
        permutation=bool(permutation),
        preset=preset,
    )
    return _meta(settings)


def maege(
    m2: Path,
    *,
    tokenizers: Union[str, Sequence[str]] = "word",
    n: Union[int, Sequence[int]] = 4,
    beta: Union[float, Sequence[float]] = 2.0,
    levels: Union[str, Sequence[str]] = "corpus",
    norm: str = "none",
    gleu: bool = False,
    score_m2: bool = False,
    edits: bool = False,
    gleu_iterations: int = 100,
    seed: int = 0,
    reps: int = 5,
    max_m: int = 10,
    protocol: str = "lattice",
    refs: Optional[str] = None,
    held_out: Sequence[Path] = (),
    strip_spaces: bool = False,
    missing_annotator: str = "skip",
) -> Dict[str, Any]:
    """``green maege --format json``: MAEGE (Choshen and Abend 2018) from the gold edits of
    the M2 file ``m2`` alone: how well each configuration orders corrections that apply more
    of the gold edits (corpus rho, chain tau, sentence r), standard and precision-oriented.

    The keywords are the CLI's options (``score_m2`` is its ``--m2``: validate M2 too). The M2
    file's doubts (stray annotators) are :class:`green_gec.GreenWarning`\\ s."""
    settings = dict(
        file=os.fspath(m2),
        **_grid(tokenizers, n, beta, levels, norm, gleu, score_m2, edits, gleu_iterations, seed),
        reps=_check.integer("reps", reps, 1, MAX_MAEGE_REPS),
        max_m=_check.integer("max_m", max_m, 0, MAX_M),
        protocol=protocol,
        refs=refs,
        held_out=[os.fspath(p) for p in held_out],
        strip_spaces=bool(strip_spaces),
        missing_annotator=missing_annotator,
    )
    report, warnings = _maege(settings)
    for message in warnings:
        _check.warn(message)
    return report


__all__ = ["datasets", "maege", "meta"]
