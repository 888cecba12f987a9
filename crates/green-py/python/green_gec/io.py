"""Reading GEC data files with the CLI's rules: line files, M2 (plain, or ChERRANT's with
``T<ref>-A<alt>`` lines), para TSV (MuCGEC's ``没有错误`` = the source) and MultiGEC-2025
Markdown essays (aligned by essay id).

    refs = green_gec.io.read_references("MuCGEC_dev.txt", format="para")
    scorer.corpus_score(refs["sources"], green_gec.io.reference_sets(refs["references"]), hyps)
"""

from __future__ import annotations

from ._green import read_lines, read_multigec, read_references
from .metric import reference_sets

__all__ = ["read_lines", "read_multigec", "read_references", "reference_sets"]
