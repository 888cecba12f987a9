"""Scale-out against the CLI: one corpus scored by N local worker processes, each taking
``Scorer.stats_files`` of its own range of lines, then ``merge`` and ``fold`` in the parent,
side by side with the single-process ``green`` command (alternating rounds, medians).

    python3 scripts/gen_corpus.py 1000000 /tmp/green-1m
    python crates/green-py/bench/scale_out.py /tmp/green-1m --workers 2

The corpus directory holds source.txt, ref0.txt, ref1.txt and hyp.txt (gen_corpus.py's
layout). The pool is started and warm before the clock starts, as a cluster would be;
``RAYON_NUM_THREADS`` in each worker is cores / workers. The merged score is checked against
the CLI's (and one process's ``score_files``) before any time is printed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

SCORER = None


def start_worker(threads: int) -> None:
    # Before the engine's thread pool exists, so it takes this size.
    os.environ["RAYON_NUM_THREADS"] = str(threads)
    global SCORER
    import green_gec

    SCORER = green_gec.Scorer("word", n=4, beta=2.0)


def shard(paths: tuple[str, list[str], list[str]], start: int, stop: int) -> dict:
    source, refs, hyps = paths
    return SCORER.stats_files(source=source, references=refs, systems=hyps, start=start, stop=stop)


def ready(_: int) -> bool:
    return SCORER is not None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--green", default=os.environ.get("GREEN_BIN", "target/release/green"))
    args = parser.parse_args()

    import green_gec

    source = str(args.corpus / "source.txt")
    refs = [str(args.corpus / "ref0.txt"), str(args.corpus / "ref1.txt")]
    hyps = [str(args.corpus / "hyp.txt")]
    with open(source, "rb") as f:
        lines = sum(1 for _ in f)
    cuts = [lines * k // args.workers for k in range(args.workers + 1)]
    ranges = list(zip(cuts, cuts[1:]))
    cli = [args.green, "-s", source, "-r", *refs, "-c", *hyps, "-b", "2"]
    scorer = green_gec.Scorer("word", n=4, beta=2.0)

    threads = max(1, (os.cpu_count() or 1) // args.workers)
    with ProcessPoolExecutor(args.workers, initializer=start_worker, initargs=(threads,)) as pool:
        assert all(pool.map(ready, range(args.workers * 4)))

        def scale_out() -> float:
            futures = [pool.submit(shard, (source, refs, hyps), a, b) for a, b in ranges]
            merged = scorer.merge(*(f.result() for f in futures))
            return scorer.fold(merged)["systems"][0]["corpus"][0]

        def command() -> str:
            return subprocess.run(cli, check=True, capture_output=True, text=True).stdout

        got = scale_out()
        printed = command().split()[-1]
        one = scorer.score_files(source=source, references=refs, systems=hyps)["systems"][0]["corpus"][0]
        if got != one or f"{got * 100:.2f}" != printed:
            raise SystemExit(f"scale-out gave {got!r}, one process {one!r}, the CLI {printed}")
        times: dict[str, list[float]] = {"cli": [], "scale-out": []}
        for _ in range(args.rounds):
            for name, run in [("cli", command), ("scale-out", scale_out)]:
                t = time.perf_counter()
                run()
                times[name].append(time.perf_counter() - t)
    cli_s = statistics.median(times["cli"])
    out_s = statistics.median(times["scale-out"])
    print(f"{lines:,} lines, {args.workers} workers x {threads} threads, score {got * 100:.2f} in both")
    print(f"CLI, one process:           {cli_s:.2f} s")
    print(f"stats + merge + fold:       {out_s:.2f} s  ({out_s / cli_s:.2f}x the CLI)")


if __name__ == "__main__":
    main()
