"""Scoring a corpus on Dask: GREEN statistics per partition, merged in order, one score.

Each partition of the corpus is scored wherever Dask runs it (here a pool of local worker
processes; a `dask.distributed` cluster works the same way). What comes back from a partition
is GREEN's statistics, a small dict; merged in partition order they give the numbers of one
process, bit for bit. The Scorer travels to the workers by pickling (it rebuilds its tokenizer
there).

    pip install "dask[bag]"
    python dask_scale_out.py ../shared/data/conll14 [PARTITIONS]
"""

import sys
from pathlib import Path

import dask.bag as db

import green_gec as green


def lines(path):
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f]


def score_on_dask(scorer, sources, references, systems, partitions, scheduler="processes"):
    """`scorer.fold` of the merged statistics of `partitions` partitions scored by Dask."""
    rows = list(zip(sources, zip(*references), zip(*systems)))
    sets, hyps = len(references), len(systems)

    def stats(part):
        part = list(part)
        return [
            scorer.stats(
                sources=[r[0] for r in part],
                references=[[r[1][k] for r in part] for k in range(sets)],
                systems=[[r[2][k] for r in part] for k in range(hyps)],
            )
        ]

    shards = db.from_sequence(rows, npartitions=partitions).map_partitions(stats)
    return scorer.fold(scorer.merge(*shards.compute(scheduler=scheduler)))


if __name__ == "__main__":
    data = Path(sys.argv[1])
    partitions = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    sources = lines(data / "source.txt")
    references = [lines(data / "ref0.txt"), lines(data / "ref1.txt")]
    names = sorted(p.stem for p in (data / "systems").glob("*.txt"))
    systems = [lines(data / "systems" / f"{name}.txt") for name in names]
    scorer = green.Scorer("word", n=4, beta=2.0)
    report = score_on_dask(scorer, sources, references, systems, partitions)
    one_process = scorer.evaluate(sources=sources, references=references, systems=systems)
    for name, got, want in zip(names, report["systems"], one_process["systems"]):
        same = got["corpus"] == want["corpus"] and got["mean"] == want["mean"]
        print(f"{name:6} corpus {got['corpus'][0] * 100:6.2f}  mean {got['mean'][0] * 100:6.2f}"
              f"  {'= one process' if same else 'DIFFERS from one process'}")
        if not same:
            sys.exit(1)
    print(report["signature"])
