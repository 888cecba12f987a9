"""Benchmark: CoNLL-14 AMU (2 references, word level, N=4, beta=2) scored from Python.

Times the Rust bindings (import, first call, warm calls, and a whole "read files + score"
round) against reference_green.py, a small pure-Python implementation of the spec's
algorithm (not the authors' code), and checks that both give the same numbers.

    python crates/green-py/bench/bench.py [--shared ../shared] [--repeat 50]

The shared data directory comes from --shared, else $GREEN_SHARED, else ../shared beside
the repository.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import reference_green  # noqa: E402


def read_lines(path: Path) -> list:
    """One string per line, as the reference reads files (text mode, only "\\n" stripped)."""
    with open(path, encoding="utf-8") as f:
        return [line[:-1] if line.endswith("\n") else line for line in f]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = os.environ.get("GREEN_SHARED") or str(HERE.parents[3] / "shared")
    parser.add_argument("--shared", default=default, help="the shared data directory (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=50, help="warm calls to time (default: %(default)s)")
    args = parser.parse_args()
    data = Path(args.shared) / "data" / "conll14"
    if not (data / "source.txt").is_file():
        print(f"bench: {data}/source.txt not found; pass --shared or set GREEN_SHARED", file=sys.stderr)
        return 1

    t0 = time.perf_counter()
    import green_gec as green

    t_import = time.perf_counter() - t0

    files = [data / "source.txt", data / "ref0.txt", data / "ref1.txt", data / "systems" / "AMU.txt"]
    src, ref0, ref1, amu = (read_lines(p) for p in files)

    t0 = time.perf_counter()
    first = green.corpus_score(sources=src, references=[ref0, ref1], hypotheses=amu).score
    t_first = time.perf_counter() - t0

    scorer = green.Scorer("word", n=4, beta=2.0)
    warm = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        scorer.corpus_score(sources=src, references=[ref0, ref1], hypotheses=amu)
        warm.append(time.perf_counter() - t0)

    rounds = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        s, r0, r1, h = (read_lines(p) for p in files)
        scorer.corpus_score(sources=s, references=[r0, r1], hypotheses=h)
        rounds.append(time.perf_counter() - t0)

    t0 = time.perf_counter()
    py = reference_green.score(src, [ref0, ref1], amu, n=4, beta=2.0)
    t_python = time.perf_counter() - t0

    rust_mean = scorer.mean_score(sources=src, references=[ref0, ref1], hypotheses=amu).score
    same = first == 100 * py["corpus"] and rust_mean == 100 * py["mean"]
    warm_median = statistics.median(warm)

    print(f"data: {data} (AMU, {len(src)} sentences, 2 references, word N=4, beta=2)")
    print(f"import green:                       {t_import * 1e3:8.2f} ms")
    print(f"first corpus_score (cold):          {t_first * 1e3:8.2f} ms")
    print(f"warm Scorer.corpus_score, median:   {warm_median * 1e3:8.2f} ms (min {min(warm) * 1e3:.2f}, {args.repeat} runs)")
    print(f"read 4 files + score, median:       {statistics.median(rounds) * 1e3:8.2f} ms")
    print(f"pure-Python reference algorithm:    {t_python * 1e3:8.2f} ms")
    print(f"speed-up (pure Python / warm):      {t_python / warm_median:8.1f}x")
    print(f"corpus score: rust {first:.6f}, python {py['corpus'] * 100:.6f}; mean: rust {rust_mean:.6f}, python {py['mean'] * 100:.6f}")
    print(f"identical floats: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
