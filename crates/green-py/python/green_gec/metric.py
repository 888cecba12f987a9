"""A stateful GREEN for training and evaluation loops (the torchmetrics pattern).

``update`` counts a batch and keeps its statistics, ``compute`` scores everything seen so far,
``merge`` adds another instance's state (another process or device, in corpus order), and
``reset`` starts again. The state is plain data (``state_dict``/``load_state_dict``), so it
can be gathered across processes with any transport. Scores equal the CLI's on the same
sentences, bit for bit (the mean is NumPy's, as ``mgreen``'s)::

    metric = green_gec.metric.Green("word", n=4, beta=2.0)
    for batch in loader:
        metric.update(sources=batch["source"], hypotheses=batch["prediction"],
                      references_per_sentence=batch["references"])
    metric.compute()["corpus"]

With torchmetrics installed (``pip install "green-gec[torch]"``), ``TorchGreen`` is the same
metric as a real ``torchmetrics.Metric``: ``forward``, ``compute`` and distributed sync of
its states (``add_state``) come from torchmetrics. It is imported on first use, so
``import green_gec`` never imports torch.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from ._check import keyword_data
from ._green import GreenError
from ._scorer import Scorer


class Green:
    """GREEN accumulated over batches: ``update``, ``compute``, ``merge``, ``reset``."""

    def __init__(
        self,
        tokenizer: str = "word",
        n: int = 4,
        beta: float = 2.0,
        norm: str = "none",
        options: Optional[Mapping[str, Union[str, int, bool]]] = None,
    ) -> None:
        self.scorer = Scorer(tokenizer, n=n, beta=beta, norm=norm, options=options)
        self._shards: List[Dict[str, Any]] = []

    @keyword_data("sources", "hypotheses", "references")
    def update(
        self,
        *,
        sources: Sequence[str],
        hypotheses: Sequence[str],
        references: Optional[Sequence[Sequence[Optional[str]]]] = None,
        references_per_sentence: Optional[Sequence[Sequence[str]]] = None,
    ) -> None:
        """Count a batch: a source and a hypothesis per sentence, and ``references`` (one list
        per reference set) or ``references_per_sentence`` (one list per sentence)."""
        if len(sources) != len(hypotheses):
            raise GreenError(
                f"update: {len(sources)} sources and {len(hypotheses)} hypotheses; give one of each per sentence"
            )
        if sources:
            self._shards.append(
                self.scorer.stats(
                    sources=sources,
                    references=references,
                    references_per_sentence=references_per_sentence,
                    systems=[hypotheses],
                )
            )

    def compute(self) -> Dict[str, Any]:
        """Corpus and mean GREEN (fractions) of every sentence seen so far, with the signature."""
        if not self._shards:
            raise GreenError("compute: no sentences yet; call update first")
        folded = self.scorer.fold(self.scorer.merge(*self._shards))
        system = folded["systems"][0]
        return {
            "corpus": system["corpus"][0],
            "mean": system["mean"][0],
            "sentences": folded["sentences"],
            "signature": folded["signature"],
        }

    def merge(self, other: "Green") -> None:
        """Append another instance's sentences (they come after this one's in the corpus)."""
        self._shards.extend(other._shards)

    def reset(self) -> None:
        self._shards = []

    def state_dict(self) -> Dict[str, Any]:
        """The state as plain data (JSON- and pickle-friendly)."""
        return {"shards": [self.scorer.merge(*self._shards)] if self._shards else []}

    def load_state_dict(self, state: Mapping[str, Any]) -> None:
        self._shards = list(state["shards"])


def __getattr__(name: str) -> Any:
    """``TorchGreen``, imported (with torch and torchmetrics) on first use."""
    if name == "TorchGreen":
        from ._torch import TorchGreen

        return TorchGreen
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# TorchGreen stays out of __all__: a star import must not import torch.
__all__ = ["Green"]
