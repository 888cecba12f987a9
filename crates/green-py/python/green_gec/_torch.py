"""``TorchGreen``: GREEN as a real ``torchmetrics.Metric`` (``pip install "green-gec[torch]"``).

torchmetrics syncs a metric across processes through the states declared with ``add_state``,
so GREEN's statistics are kept as tensors: the integer region counts of the chosen
references per order (summed across processes) and every sentence's score (concatenated, for
NumPy's mean), plus the most references any sentence had (for the signature). ``compute``
folds them with the scorer, so the numbers are the CLI's for the same sentences (across
processes, in the order torchmetrics gathers them). Imported by ``green_gec.metric`` on first
use of ``TorchGreen``, so ``import green_gec`` never imports torch.
"""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Sequence, Union

import torch
import torchmetrics
from torchmetrics.utilities import dim_zero_cat

from ._check import keyword_data
from ._green import GreenError
from ._scorer import Scorer

REGIONS = ("tk", "td", "ti", "od", "oi", "ud", "ui")


class TorchGreen(torchmetrics.Metric):
    """Corpus and mean GREEN over batches, as a ``torchmetrics.Metric``: ``update`` (data by
    keyword, as everywhere in the package), ``compute`` (``{"corpus": tensor, "mean":
    tensor}``, fractions), ``forward`` (the batch's scores, accumulating), ``reset``, and
    distributed sync of its states."""

    is_differentiable = False
    higher_is_better = True
    full_state_update = False

    def __init__(
        self,
        tokenizer: str = "word",
        n: int = 4,
        beta: float = 2.0,
        norm: str = "none",
        options: Optional[Mapping[str, Union[str, int, bool]]] = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.scorer = Scorer(tokenizer, n=n, beta=beta, norm=norm, options=options)
        # The statistics of no sentence: the settings part of every fold.
        self._empty = self.scorer.stats(sources=[], references=[[]], systems=[[]])
        self.add_state("regions", default=torch.zeros(n, len(REGIONS), dtype=torch.int64), dist_reduce_fx="sum")
        self.add_state("scores", default=[], dist_reduce_fx="cat")
        self.add_state("refs", default=torch.tensor(0, dtype=torch.int64), dist_reduce_fx="max")

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
        stats = self.scorer.stats(
            sources=sources, references=references, references_per_sentence=references_per_sentence, systems=[hypotheses]
        )
        counted = stats["statistics"]
        totals = [[row[k] for k in REGIONS] for row in counted["totals"]]
        self.regions += torch.tensor(totals, dtype=torch.int64, device=self.regions.device)
        self.scores.append(torch.tensor(counted["scores"], dtype=torch.float64, device=self.regions.device))
        self.refs = torch.maximum(self.refs, torch.tensor(stats["refs"], device=self.refs.device))

    def compute(self) -> Dict[str, torch.Tensor]:
        """Corpus and mean GREEN (fractions) of every sentence counted, on every process."""
        scores = dim_zero_cat(self.scores).tolist() if len(self.scores) else []
        if not scores:
            raise GreenError("compute: no sentences yet; call update first")
        statistics = dict(
            self._empty["statistics"],
            totals=[dict(zip(REGIONS, row)) for row in self.regions.tolist()],
            sums=[sum(scores)],
            sentences=len(scores),
            scores=scores,
        )
        folded = self.scorer.fold(dict(self._empty, refs=int(self.refs), statistics=statistics))
        system = folded["systems"][0]
        return {
            "corpus": torch.tensor(system["corpus"][0], dtype=torch.float64),
            "mean": torch.tensor(system["mean"][0], dtype=torch.float64),
        }

    def signature(self) -> str:
        """The signature of the scores ``compute`` gives."""
        return self.scorer.signature(int(self.refs))
