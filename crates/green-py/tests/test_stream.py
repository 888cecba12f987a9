"""Streaming: files read in lock step and rows from an iterator give the in-memory numbers."""

from __future__ import annotations

import random

import pytest

import green_gec as green


def corpus(size=5000, seed=2):
    rng = random.Random(seed)
    words = ["a", "b", "the", "cat", "sat", "on", "mat", ".", "猫"]
    line = lambda: " ".join(rng.choice(words) for _ in range(rng.randint(0, 12)))  # noqa: E731
    return (
        [line() for _ in range(size)],
        [[line() for _ in range(size)], [line() for _ in range(size)]],
        [[line() for _ in range(size)] for _ in range(2)],
    )


def write(path, lines):
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_files_and_rows_stream_like_evaluate(tmp_path):
    # 5,000 sentences: two batches of the streaming reader.
    sources, refs, systems = corpus()
    scorer = green.Scorer("word", n=4, beta=[0.5, 2.0])
    whole = scorer.evaluate(sources=sources, references=refs, systems=systems)
    src = write(tmp_path / "src.txt", sources)
    ref_paths = [write(tmp_path / f"ref{k}.txt", r) for k, r in enumerate(refs)]
    hyp_paths = [str(write(tmp_path / f"hyp{k}.txt", h)) for k, h in enumerate(systems)]
    from_files = scorer.score_files(source=src, references=ref_paths, systems=hyp_paths)
    rows = ((s, [r[i] for r in refs], [h[i] for h in systems]) for i, s in enumerate(sources))
    from_rows = scorer.score_rows(rows, systems=2)
    stats = scorer.fold(scorer.stats_files(source=src, references=ref_paths, systems=hyp_paths))
    for report in [from_files, from_rows, stats]:
        assert report["sentences"] == len(sources)
        assert report["signature"] == whole["signature"]
        for got, want in zip(report["systems"], whole["systems"]):
            assert got["corpus"] == want["corpus"]
            assert got["mean"] == want["mean"]


def test_line_ranges_are_shards_that_merge_into_the_whole(tmp_path):
    sources, refs, systems = corpus(size=9000, seed=5)
    scorer = green.Scorer("word", n=4, beta=[0.5, 2.0])
    src = write(tmp_path / "src.txt", sources)
    ref_paths = [write(tmp_path / f"ref{k}.txt", r) for k, r in enumerate(refs)]
    hyp_paths = [write(tmp_path / f"hyp{k}.txt", h) for k, h in enumerate(systems)]
    files = dict(source=src, references=ref_paths, systems=hyp_paths)
    whole = scorer.fold(scorer.stats_files(**files))
    cuts = [0, 1, 4096, 4097, 7000, 9000]
    shards = [scorer.stats_files(**files, start=a, stop=b) for a, b in zip(cuts, cuts[1:])]
    shards.append(scorer.stats_files(**files, start=9000))
    assert scorer.fold(scorer.merge(*shards)) == whole
    middle = scorer.score_files(**files, start=4097, stop=7000)
    in_memory = scorer.evaluate(
        sources=sources[4097:7000], references=[r[4097:7000] for r in refs], systems=[h[4097:7000] for h in systems]
    )
    assert middle["sentences"] == 2903
    assert [s["corpus"] for s in middle["systems"]] == [s["corpus"] for s in in_memory["systems"]]
    # An error names the line of the whole file.
    bad = write(tmp_path / "bad.txt", sources[:8000] + ["x" * 3] + sources[8001:])
    bad.write_bytes(bad.read_bytes().replace(b"xxx", b"\xff"))
    with pytest.raises(green.GreenError, match=r"bad.txt:8001: invalid UTF-8"):
        scorer.score_files(source=src, references=ref_paths, systems=[bad, hyp_paths[1]], start=7000, stop=8500)
    with pytest.raises(green.GreenError, match="start=5 is after stop=4"):
        scorer.score_files(**files, start=5, stop=4)


def test_streaming_errors_name_the_place(tmp_path):
    scorer = green.Scorer()
    a = write(tmp_path / "a.txt", ["x", "y"])
    b = write(tmp_path / "b.txt", ["x"])
    with pytest.raises(green.GreenError, match=r"a.txt has 2 lines but .*b.txt has 1"):
        scorer.score_files(source=a, references=[a], systems=[b])
    with pytest.raises(green.GreenError, match="cannot read"):
        scorer.score_files(source=a, references=[tmp_path / "missing.txt"], systems=[a])
    with pytest.raises(green.GreenError, match="at least one reference"):
        scorer.score_files(source=a, references=[], systems=[a])
    with pytest.raises(green.GreenError, match="row 2: 0 references"):
        scorer.score_rows([("x", ["x"], ["x"]), ("x", [], ["x"])])
    with pytest.raises(TypeError, match="row 1"):
        scorer.score_rows([("x", "x", "x")])
    with pytest.raises(green.GreenError, match="no sentences"):
        scorer.score_rows(iter([]))
