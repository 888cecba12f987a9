"""The Python API on small inputs written here: levels, betas, counts, signature, threads."""

from __future__ import annotations

import math
import sys
import threading

import pytest
import reference_green

import green_gec as green

SRC = ["He go to school .", "This are a pen .", "I like it ."]
REF0 = ["He goes to school .", "This is a pen .", "I like it ."]
REF1 = ["He went to school .", "These are pens .", "I love it ."]
HYP = ["He goes to the school .", "This is a pen .", "I like it ."]


def test_engine_example_value():
    # The engine's documented example: 72.17 at beta 2, N 4.
    score = green.corpus_score(sources=SRC[:1], references=[REF0[:1]], hypotheses=HYP[:1])
    assert score.score == pytest.approx(72.17, abs=1e-2)
    assert str(score) == "GREEN = 72.17 (P = 55.05, R = 78.25, beta = 2)"


def test_levels_agree_with_pure_python():
    for beta in [0.5, 1.0, 2.0, math.inf]:
        py = reference_green.score(SRC, [REF0, REF1], HYP, n=4, beta=beta)
        data = dict(sources=SRC, references=[REF0, REF1], hypotheses=HYP, beta=beta)
        assert green.corpus_score(**data).score == 100 * py["corpus"]
        assert green.mean_score(**data).score == 100 * py["mean"]
        assert green.sentence_scores(**data) == py["sentence"]


def test_char_level_and_n():
    py = reference_green.score(SRC, [REF0], HYP, n=6, beta=2.0, tokenize=reference_green.char)
    assert green.corpus_score(sources=SRC, references=[REF0], hypotheses=HYP, n=6, tokenizer="char").score == 100 * py["corpus"]


def test_evaluate_layout_and_counts():
    scorer = green.Scorer("word", n=2, beta=[1.0, 2.0])
    result = scorer.evaluate(sources=SRC, references=[REF0, REF1], systems=[HYP, SRC])
    assert result["n"] == 2 and result["betas"] == [1.0, 2.0] and result["refs"] == 2
    assert result["alphas"] == [0.5, 0.2]
    assert result["sentences"] == 3 and result["tokenizer"] == "word" and result["norm"] == "none"
    assert len(result["systems"]) == 2
    system = result["systems"][0]
    assert len(system["corpus"]) == 2 and len(system["sentence"][1]) == 3
    assert system["chosen"][0] == [0, 0, 0]  # REF0 fits HYP best everywhere
    orders = system["orders"][1]
    assert [o["order"] for o in orders] == [1, 2]
    for o in orders:
        assert o["tp"] == o["tk"] + o["td"] + o["ti"]
        assert o["fp"] == o["od"] + o["oi"] and o["fn"] == o["ud"] + o["ui"]
    assert orders[-1]["cum_f"] == system["corpus"][1]
    for b in range(2):
        assert system["mean"][b] == pytest.approx(sum(system["sentence"][b]) / 3)
        score = scorer.corpus_score(sources=SRC, references=[REF0, REF1], hypotheses=HYP, beta=[1.0, 2.0][b])
        assert score.score == 100 * system["corpus"][b]
    # The uncorrected source as a system gets no credit for the corrections it missed.
    assert result["systems"][1]["corpus"][1] < system["corpus"][1]


def test_missing_references_are_skipped():
    """None where a reference set has nothing for a sentence (MuCGEC-style varying counts)."""
    refs = [REF0, [None, REF1[1], None]]
    result = green.evaluate(sources=SRC, references=refs, systems=[HYP], beta=2.0)
    py = reference_green.score(SRC, refs, HYP, n=4, beta=2.0)
    assert result["systems"][0]["corpus"] == [py["corpus"]]
    assert result["systems"][0]["sentence"] == [py["sentence"]]
    # `chosen` indexes reference sets, so the None holes do not shift it.
    only_second = green.evaluate(sources=SRC[1:2], references=[[None], [REF0[1]]], systems=[HYP[1:2]])
    assert only_second["systems"][0]["chosen"] == [[1]]
    assert only_second["refs"] == 1


def test_signature_and_properties():
    scorer = green.Scorer("char", n=6, beta=[0.5, math.inf], norm="nfkc+lower")
    assert scorer.n == 6 and scorer.betas == [0.5, math.inf] and scorer.norm == "nfkc+lower"
    assert scorer.spec == "char" and scorer.tokenizer == "char"
    assert scorer.signature(3, "mean") == f"green|n:6|beta:0.5,inf|tok:char|norm:nfkc+lower|refs:3|level:mean|v:{green.__version__}"
    assert green.signature(2) == f"green|n:4|beta:2|tok:word|norm:none|refs:2|level:corpus|v:{green.__version__}"
    assert "Scorer(" in repr(scorer)


def test_normalisation_and_tokenize():
    scorer = green.Scorer("word", norm="nfkc+lower", options={"norm": "nfkc+lower"})
    assert scorer.tokenize("ＨＥ  Goes\u3000ok") == ["he", "goes", "ok"]
    assert green.Scorer("char:nospace").tokenize("我 们") == ["我", "们"]
    # Normalisation changes scores: case-only differences vanish.
    upper = [s.upper() for s in HYP]
    score = lambda hyps, **kw: green.corpus_score(sources=SRC, references=[REF0], hypotheses=hyps, **kw).score  # noqa: E731
    assert score(upper, norm="lower") == score(HYP)
    assert score(upper) < score(HYP)


def test_known_tokenizers_listed():
    names = [name for name, _ in green.tokenizers()]
    assert {"word", "char"} <= set(names)


def test_gil_released_while_scoring():
    """Another Python thread runs while a scoring call is in Rust. No clock: with a switch
    interval of an hour, the interpreter never takes the GIL from the main thread, so the
    other thread can only run if the call itself lets the GIL go. A call too short for the
    other thread to be scheduled proves nothing either way, so the input doubles until the
    thread has run (it would never run if the GIL were held, whatever the size)."""
    scorer = green.Scorer("char", n=8)
    previous = sys.getswitchinterval()
    try:
        sys.setswitchinterval(3600.0)
        for doubling in range(16):
            size = 2**doubling
            src, ref, hyp = SRC * size, [REF0 * size, REF1 * size], HYP * size
            ran, gate = [], threading.Event()

            def other():
                gate.wait()  # blocks (GIL released) until the main thread opens the gate
                ran.append(True)  # needs the GIL back: only while the call has let it go

            t = threading.Thread(target=other)
            t.start()
            gate.set()  # the other thread now waits for the GIL, which we hold
            scorer.corpus_score(sources=src, references=ref, hypotheses=hyp)
            seen = bool(ran)  # read before anything here can let the GIL go
            t.join()
            if seen:
                return
    finally:
        sys.setswitchinterval(previous)
    pytest.fail(f"another thread never ran during a call on {size * len(SRC)} sentences: the GIL was held")


def test_scorer_shared_across_threads():
    scorer = green.Scorer()
    data = dict(sources=SRC, references=[REF0, REF1], hypotheses=HYP)
    expected = scorer.corpus_score(**data)
    results = []
    threads = [threading.Thread(target=lambda: results.append(scorer.corpus_score(**data))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [expected] * 4


def test_accepts_any_sequence():
    as_tuples = green.corpus_score(sources=tuple(SRC), references=(tuple(REF0),), hypotheses=tuple(HYP))
    assert as_tuples == green.corpus_score(sources=SRC, references=[REF0], hypotheses=HYP)


def test_empty_corpus():
    # A score of nothing is an error, as in the CLI; the list of no sentence scores is [].
    with pytest.raises(green.GreenError, match="^no sentences: there is nothing to score"):
        green.corpus_score(sources=[], references=[[]], hypotheses=[])
    with pytest.raises(green.GreenError, match="^no sentences"):
        green.Scorer().mean_score(sources=[], references=[[]], hypotheses=[])
    assert green.sentence_scores(sources=[], references=[[]], hypotheses=[]) == []


def test_functions_reuse_a_cached_scorer():
    """The module functions keep recent Scorers, so a dictionary loads once per setting."""
    first = green._scorer("char", 6, [2.0], "none", {"norm": "nfc"})
    again = green._scorer("char", 6, 2.0, "none", {"norm": "nfc"})
    assert first is again
    assert green._scorer("char", 6, 2.0, "none", {"norm": "nfkc"}) is not first


def test_ctrl_c_stops_a_long_call():
    """Ctrl-C during a long call raises KeyboardInterrupt at the next batch, instead of after
    the whole call. No clock: the tokenizer (a Python callable, run on the engine's worker
    threads) sends SIGINT on its first call and records which sentences it was given; the
    call must stop long before it has seen them all."""
    import os
    import signal

    count = 40_000  # ten of the engine's batches (4,096 sentences)
    src = [f"s{i} the cat sat on the mat" for i in range(count)]
    ref = [f"s{i} the cat sat on a mat" for i in range(count)]
    seen = set()

    def tokenize(text):
        if not seen:
            os.kill(os.getpid(), signal.SIGINT)
        seen.add(int(text.split(" ", 1)[0][1:]))
        return text.split()

    # A process started in the background by a shell ignores SIGINT, and Python then installs
    # no handler: install Python's own for the test.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            green.Scorer(tokenize).corpus_score(sources=src, references=[ref], hypotheses=src)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert seen and max(seen) < count // 2, f"the call went on to sentence {max(seen)} of {count}"


def test_namespace_lists_public_names_only():
    public = set(dir(green))
    assert public == set(green.__all__) and {"io", "metric"} <= public
    assert not {"List", "Mapping", "lru_cache", "Union"} & public


def test_import_name_does_not_collide_with_the_green_test_runner():
    # PyPI's `green` (a test runner) installs the top-level module `green`; this package
    # installs only `green_gec`, so both can live in one environment.
    from importlib.metadata import files

    assert green.__name__ == "green_gec"
    top = {str(f).split("/")[0] for f in files("green-gec") or []}
    modules = {t for t in top if not t.endswith((".dist-info", ".pth"))}
    # A wheel install lists the package's files; `maturin develop` only a .pth file.
    assert modules == {"green_gec"} or (not modules and any(t.endswith(".pth") for t in top)), top
