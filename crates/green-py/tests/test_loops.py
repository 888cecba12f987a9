"""The stateful metric (torchmetrics pattern) and the Hugging Face `evaluate` module give the
numbers of the CLI (through `Scorer.evaluate`, which the CLI parity tests pin)."""

from __future__ import annotations

import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

import green_gec as green
from green_gec.metric import Green

HF_MODULE = Path(__file__).resolve().parent.parent / "hf" / "green_gec" / "green_gec.py"


def corpus(size=300, seed=5):
    rng = random.Random(seed)
    words = ["a", "b", "the", "cat", "sat", "on", "mat", "."]
    line = lambda: " ".join(rng.choice(words) for _ in range(rng.randint(1, 10)))  # noqa: E731
    sources = [line() for _ in range(size)]
    predictions = [line() for _ in range(size)]
    references = [[line() for _ in range(rng.randint(1, 3))] for _ in range(size)]
    return sources, predictions, references


def expected(sources, predictions, references, **settings):
    scorer = green.Scorer(**settings)
    whole = scorer.evaluate(sources=sources, references_per_sentence=references, systems=[predictions])
    return whole["systems"][0]["corpus"][0], whole["systems"][0]["mean"][0], whole["signature"]


def test_stateful_metric_over_batches_merges_and_resets():
    sources, predictions, references = corpus()
    corpus_score, mean, signature = expected(sources, predictions, references, tokenizer="char", n=6)
    first, second = Green("char", n=6), Green("char", n=6)
    for lo in range(0, 200, 32):
        hi = min(lo + 32, 200)
        first.update(sources=sources[lo:hi], hypotheses=predictions[lo:hi], references_per_sentence=references[lo:hi])
    second.update(sources=sources[200:], hypotheses=predictions[200:], references_per_sentence=references[200:])
    # Another process's state arrives as plain data.
    other = Green("char", n=6)
    other.load_state_dict(pickle.loads(pickle.dumps(second.state_dict())))
    first.merge(other)
    got = first.compute()
    assert (got["corpus"], got["mean"], got["signature"]) == (corpus_score, mean, signature)
    assert got["sentences"] == len(sources)
    first.reset()
    with pytest.raises(green.GreenError, match="no sentences"):
        first.compute()
    with pytest.raises(green.GreenError, match="one of each"):
        first.update(sources=["a"], hypotheses=["a", "b"], references=[["a"]])
    with pytest.raises(TypeError, match="one list of reference strings per sentence"):
        first.update(sources=["a"], hypotheses=["a"], references_per_sentence=["a"])
    with pytest.raises(TypeError, match="takes its data by keyword"):
        first.update(["a"], ["a"], [["a"]])


def test_hugging_face_evaluate_module(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HOME", str(tmp_path))
    monkeypatch.setenv("HF_EVALUATE_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    import evaluate

    sources, predictions, references = corpus()
    metric = evaluate.load(str(HF_MODULE))
    got = metric.compute(sources=sources, predictions=predictions, references=references, beta=0.5)
    corpus_score, mean, signature = expected(sources, predictions, references, beta=0.5)
    assert got == {"green": corpus_score, "green_mean": mean, "signature": signature}
    # Batches added one at a time, as in an evaluation loop.
    for lo in range(0, len(sources), 100):
        metric.add_batch(sources=sources[lo:lo + 100], predictions=predictions[lo:lo + 100],
                         references=references[lo:lo + 100])
    assert metric.compute(beta=0.5)["green"] == corpus_score
    assert os.path.exists(HF_MODULE.with_name("README.md"))


@pytest.mark.filterwarnings("ignore:The ``compute`` method of metric TorchGreen was called before")
def test_torchmetrics_metric():
    """With torchmetrics installed: a real Metric whose states sync through add_state."""
    torchmetrics = pytest.importorskip("torchmetrics", reason="torchmetrics is an optional extra")
    from green_gec.metric import TorchGreen

    sources, predictions, references = corpus()
    corpus_score, mean, signature = expected(sources, predictions, references, tokenizer="char", n=6)
    first, second = TorchGreen("char", n=6), TorchGreen("char", n=6)
    assert isinstance(first, torchmetrics.Metric)
    for lo in range(0, 200, 50):
        batch = dict(sources=sources[lo:lo + 50], hypotheses=predictions[lo:lo + 50], references_per_sentence=references[lo:lo + 50])
        value = first(**batch)  # forward: this batch's scores, and the batch is counted
        alone = expected(batch["sources"], batch["hypotheses"], batch["references_per_sentence"], tokenizer="char", n=6)
        assert (float(value["corpus"]), float(value["mean"])) == alone[:2]
    second.update(sources=sources[200:], hypotheses=predictions[200:], references_per_sentence=references[200:])
    # What distributed sync does with the states (sum, cat, max), from another process's metric.
    first.merge_state(second)
    got = first.compute()
    assert (float(got["corpus"]), float(got["mean"])) == (corpus_score, mean)
    assert first.signature() == signature
    first.reset()
    with pytest.raises(green.GreenError, match="no sentences"):
        first.compute()


def test_torch_green_needs_no_torch_to_import_the_package():
    code = "import sys, green_gec.metric; assert 'torch' not in sys.modules; print(green_gec.metric.Green.__name__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.split() == ["Green"], out.stderr
