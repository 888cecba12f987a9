"""A stateful GREEN for training and evaluation loops (the torchmetrics pattern).

``update`` counts a batch and keeps its statistics, ``compute`` scores everything seen so far,
``merge`` adds another instance's state (another process or device, in corpus order), and
``reset`` starts again. The state is plain data (``state_dict``/``load_state_dict``), so it
can be gathered across processes with any transport. Scores equal the CLI's on the same
sentences, bit for bit::

    metric = green_gec.metric.Green("word", n=4, beta=2.0)
    for batch in loader:
        metric.update(batch["source"], batch["prediction"], batch["references"])
    metric.compute()["corpus"]
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from ._green import GreenError, Scorer


def reference_sets(references: Sequence[Sequence[str]]) -> List[List[Optional[str]]]:
    """Per-sentence reference lists (any number each) as reference sets padded with None."""
    if isinstance(references, str) or any(isinstance(r, str) for r in references):
        raise TypeError("references: give one list of reference strings per sentence")
    width = max((len(r) for r in references), default=0)
    return [[r[k] if k < len(r) else None for r in references] for k in range(width)]


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
        self.scorer = Scorer(tokenizer, n=n, beta=beta, norm=norm, options=dict(options or {}))
        self._shards: List[Dict[str, Any]] = []

    def update(
        self,
        sources: Sequence[str],
        predictions: Sequence[str],
        references: Sequence[Sequence[str]],
    ) -> None:
        """Count a batch: one source, one prediction and a list of references per sentence."""
        if not (len(sources) == len(predictions) == len(references)):
            raise GreenError(
                f"update: {len(sources)} sources, {len(predictions)} predictions and "
                f"{len(references)} reference lists; give one of each per sentence"
            )
        if sources:
            self._shards.append(
                self.scorer.stats(list(sources), reference_sets(references), [list(predictions)])
            )

    def compute(self) -> Dict[str, Any]:
        """Corpus and mean GREEN of every sentence seen so far, with the signature."""
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
