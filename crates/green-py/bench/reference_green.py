"""A small pure-Python GREEN, written from ../shared/docs/green-spec.md for comparison.

This is NOT the authors' code: it is the reference implementation's algorithm (Counter
multisets of n-grams, the seven regions per n-gram, best reference per sentence by
[F_N, ..., F_1], corpus sums) written plainly, the way a Python metric library would. The
benchmark times it against the Rust bindings on the same data, and the tests check that
both give the same numbers.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Callable, List, Optional, Sequence

Tokenize = Callable[[str], List[str]]
REGIONS = ("tk", "td", "ti", "od", "oi", "ud", "ui")


def word(text: str) -> List[str]:
    """The reference's word level: Python str.split()."""
    return text.split()


def char(text: str) -> List[str]:
    """The reference's char level: every code point, spaces included."""
    return list(text)


def ngram_counts(tokens: List[str], n: int) -> Counter:
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def regions(s_counts: Counter, r_counts: Counter, c_counts: Counter) -> List[int]:
    """Summed [tk, td, ti, od, oi, ud, ui] over every n-gram of one order."""
    out = [0] * 7
    for x in set(s_counts) | set(r_counts) | set(c_counts):
        s, r, c = s_counts[x], r_counts[x], c_counts[x]
        out[0] += min(s, r, c)
        out[1] += max(0, s - max(r, c))
        out[2] += max(0, min(r, c) - s)
        out[3] += max(0, min(s, r) - c)
        out[4] += max(0, c - max(s, r))
        out[5] += max(0, min(s, c) - r)
        out[6] += max(0, r - max(s, c))
    return out


def precision(reg: Sequence[int]) -> float:
    tp, fp = reg[0] + reg[1] + reg[2], reg[3] + reg[4]
    return 1.0 if tp + fp == 0 else tp / (tp + fp)


def recall(reg: Sequence[int]) -> float:
    tp, fn = reg[0] + reg[1] + reg[2], reg[5] + reg[6]
    return 0.0 if tp + fn == 0 else tp / (tp + fn)


def f_score(p: float, r: float, alpha: float) -> float:
    if p == 0 or r == 0:
        return 0.0
    if alpha == 0:
        return r
    return 1 / (alpha / p + (1 - alpha) / r)


def pairwise_sum(a: Sequence[float]) -> float:
    """NumPy's pairwise sum of float64 (what ``np.mean`` sums with, so the reference's
    ``mgreen`` differs from a running sum in the last bit): a plain loop below 8 values, eight
    interleaved accumulators up to 128, else two halves (the first a multiple of 8 long)."""
    n = len(a)
    if n < 8:
        total = 0.0
        for x in a:
            total += x
        return total
    if n <= 128:
        r = list(a[:8])
        whole = n - n % 8
        for i in range(8, whole, 8):
            for j in range(8):
                r[j] += a[i + j]
        total = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        for x in a[whole:]:
            total += x
        return total
    half = n // 2
    half -= half % 8
    return pairwise_sum(a[:half]) + pairwise_sum(a[half:])


def numpy_mean(a: Sequence[float]) -> float:
    """``np.mean`` of a list of floats."""
    return pairwise_sum(a) / len(a)


def geometric_mean(xs: Sequence[float]) -> float:
    if 0.0 in xs:
        return 0.0
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def alpha_of(beta: float) -> float:
    return 0.0 if math.isinf(beta) else 1 / (beta**2 + 1)


def cumulative_f(orders: Sequence[Sequence[int]], beta: float) -> List[float]:
    """F_1..F_N from cumulative (geometric mean) precision and recall."""
    a = alpha_of(beta)
    ps = [precision(o) for o in orders]
    rs = [recall(o) for o in orders]
    return [f_score(geometric_mean(ps[: k + 1]), geometric_mean(rs[: k + 1]), a) for k in range(len(orders))]


def sentence_regions(source: str, reference: str, hypothesis: str, n: int, tokenize: Tokenize) -> List[List[int]]:
    s, r, c = tokenize(source), tokenize(reference), tokenize(hypothesis)
    return [regions(ngram_counts(s, k), ngram_counts(r, k), ngram_counts(c, k)) for k in range(1, n + 1)]


def score(
    sources: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    hypotheses: Sequence[str],
    n: int = 4,
    beta: float = 2.0,
    tokenize: Tokenize = word,
) -> dict:
    """Corpus, mean and sentence GREEN of one system; references as reference sets."""
    totals = [[0] * 7 for _ in range(n)]
    sentence = []
    for i, (src, hyp) in enumerate(zip(sources, hypotheses)):
        best = None
        for ref_set in references:
            ref = ref_set[i]
            if ref is None:
                continue
            regs = sentence_regions(src, ref, hyp, n, tokenize)
            key = cumulative_f(regs, beta)[::-1]
            if best is None or key > best[0]:
                best = (key, regs)
        assert best is not None, f"sentence {i + 1} has no reference"
        sentence.append(best[0][0])
        for t, reg in zip(totals, best[1]):
            for j in range(7):
                t[j] += reg[j]
    corpus = cumulative_f(totals, beta)[-1]
    mean = numpy_mean(sentence) if sentence else 0.0
    return {"corpus": corpus, "mean": mean, "sentence": sentence, "orders": totals}
