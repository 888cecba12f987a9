"""Type stubs of the compiled module ``green_gec._green`` (re-exported by ``green_gec``)."""

import os
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from ._types import Evaluation, Folded

__version__: str

class GreenError(ValueError):
    """Bad input or settings for GREEN; the message says what is wrong and what to do."""

def tokenizers() -> List[Tuple[str, str]]:
    """The tokenizer specs this build knows, as (name, description) pairs."""

def tokenizer_options() -> List[Tuple[str, str]]:
    """The keys ``options={...}`` accepts (e.g. a plugin's configuration), as (key, description) pairs."""

class Gleu:
    """GLEU (Napoles et al.) exactly as ``green gleu`` and the PyPI package ``gleu --fix-seed``
    compute it. Corpus GLEU averages ``iterations`` reference draws (CPython's Mersenne
    Twister seeded with 101*i); sentence GLEU averages over references, or takes the best
    with ``max=True``. Scores are fractions (the CLI prints them x100)."""

    def __init__(
        self,
        tokenizer: str = "word",
        n: int = 4,
        iterations: int = 500,
        norm: str = "none",
        options: Optional[Mapping[str, object]] = None,
    ) -> None: ...
    def corpus_score(
        self, sources: Sequence[str], references: Sequence[Sequence[Optional[str]]], hypotheses: Sequence[str], *, max: bool = False
    ) -> float: ...
    def mean_score(
        self, sources: Sequence[str], references: Sequence[Sequence[Optional[str]]], hypotheses: Sequence[str], *, max: bool = False
    ) -> float: ...
    def sentence_scores(
        self, sources: Sequence[str], references: Sequence[Sequence[Optional[str]]], hypotheses: Sequence[str], *, max: bool = False
    ) -> List[float]: ...
    def stats(
        self, sources: Sequence[str], references: Sequence[Sequence[Optional[str]]], hypotheses: Sequence[str]
    ) -> List[Dict[str, Any]]:
        """Every sentence's GLEU statistics (plain dicts); shards concatenate in corpus order."""
    def paired(
        self,
        a: Sequence[Mapping[str, Any]],
        b: Sequence[Mapping[str, Any]],
        *,
        test: str = "bs",
        reps: int = 1000,
        seed: int = 0,
        confidence: float = 0.95,
        max: bool = False,
    ) -> Dict[str, Any]: ...
    def fold(self, stats: Sequence[Mapping[str, Any]], *, level: str = "corpus", max: bool = False) -> float:
        """Corpus (sampled, or ``max=True``) or mean GLEU of concatenated statistics."""
    def report(
        self,
        systems: Sequence[Sequence[Mapping[str, Any]]],
        *,
        names: Optional[Sequence[str]] = None,
        level: str = "corpus",
        max: bool = False,
    ) -> Dict[str, Any]:
        """Several systems' ``stats`` as ``green gleu --format json`` prints them (names default
        to ``system1``, ``system2``, ...)."""
    def signature(self, refs: str, level: str = "corpus", max: bool = False) -> str: ...

class MaxMatch:
    """M2 (MaxMatch) exactly as the NUS m2scorer and ``green maxmatch`` compute it.

    ``gold`` is the M2 text (``str``) or a path (``pathlib.Path``). Options are the
    original's; ``alternatives`` is ``"first"`` or ``"pool"`` for ChERRANT target lines;
    ``tokenizer`` (default: the original's whitespace split) tokenizes raw system output.
    ``stats`` gives per-sentence sufficient statistics (plain lists/dicts) that ``fold``
    turns into the corpus score, shard by shard in sentence order."""

    def __init__(
        self,
        gold: Union[str, "os.PathLike[str]"],
        *,
        beta: float = 0.5,
        max_unchanged_words: int = 2,
        ignore_whitespace_casing: bool = False,
        alternatives: str = "first",
        tokenizer: Optional[str] = None,
        norm: str = "none",
        options: Optional[Mapping[str, object]] = None,
    ) -> None: ...
    def __len__(self) -> int: ...
    @property
    def warnings(self) -> List[str]: ...
    def score(self, hypotheses: Sequence[str]) -> Dict[str, Any]: ...
    def sentences(self, hypotheses: Sequence[str]) -> List[Dict[str, Any]]: ...
    def stats(self, hypotheses: Sequence[str]) -> List[Dict[str, Any]]: ...
    def paired(
        self,
        a: Sequence[Mapping[str, Any]],
        b: Sequence[Mapping[str, Any]],
        *,
        test: str = "bs",
        reps: int = 1000,
        seed: int = 0,
        confidence: float = 0.95,
    ) -> Dict[str, Any]: ...
    def fold(self, stats: Sequence[Mapping[str, Any]]) -> Dict[str, Any]: ...
    def report(
        self,
        systems: Sequence[Sequence[Mapping[str, Any]]],
        *,
        names: Optional[Sequence[str]] = None,
        verbose: bool = False,
    ) -> Dict[str, Any]:
        """Several systems' ``stats`` as ``green maxmatch --format json [-v]`` prints them."""
    def signature(self) -> str: ...

class ErrantCompare:
    """ERRANT's span-based F-score exactly as ERRANT 3.0.2's ``errant_compare`` and
    ``green errant-compare`` compute it, against one reference M2 file (text or path).

    ``mode`` is ``"cs"`` (span + correction), ``"cse"`` (+ type), ``"ds"`` (span detection)
    or ``"dt"`` (token detection). ``stats`` gives per-sentence statistics (every annotator
    pair's counts) that ``fold`` turns into the corpus score, shard by shard in order."""

    def __init__(
        self,
        reference: Union[str, "os.PathLike[str]"],
        *,
        beta: float = 0.5,
        mode: str = "cs",
        single: bool = False,
        multi: bool = False,
        filter: Sequence[str] = (),
        cherrant: bool = False,
    ) -> None: ...
    def __len__(self) -> int: ...
    def score(self, hypothesis: Union[str, "os.PathLike[str]"], *, cat: int = 3) -> Dict[str, Any]: ...
    def stats(self, hypothesis: Union[str, "os.PathLike[str]"]) -> List[Dict[str, Any]]: ...
    def paired(
        self,
        a: Sequence[Mapping[str, Any]],
        b: Sequence[Mapping[str, Any]],
        *,
        test: str = "bs",
        reps: int = 1000,
        seed: int = 0,
        confidence: float = 0.95,
    ) -> Dict[str, Any]: ...
    def fold(self, stats: Sequence[Mapping[str, Any]], *, cat: int = 3) -> Dict[str, Any]: ...
    def report(
        self,
        systems: Sequence[Sequence[Mapping[str, Any]]],
        *,
        names: Optional[Sequence[str]] = None,
        cat: int = 3,
        verbose: bool = False,
    ) -> Dict[str, Any]:
        """Several systems' ``stats`` as ``green errant-compare --format json`` prints them."""
    def signature(self) -> str: ...

class Cleme:
    """CLEME (Ye et al. 2023) as ``green cleme`` computes it, against one reference M2 file:
    ``dependent`` and ``independent``, each with ``corpus``, ``corpus_unweighted``,
    ``sentence`` and ``sentence_unweighted`` scores (length weights as published)."""

    def __init__(
        self, reference: Union[str, "os.PathLike[str]"], *, beta: float = 0.5, merge_distance: int = 0
    ) -> None: ...
    def __len__(self) -> int: ...
    def score(self, hypothesis: Union[str, "os.PathLike[str]"]) -> Dict[str, Any]: ...
    def stats(self, hypothesis: Union[str, "os.PathLike[str]"]) -> List[Dict[str, Any]]: ...
    def paired(
        self,
        a: Sequence[Mapping[str, Any]],
        b: Sequence[Mapping[str, Any]],
        *,
        test: str = "bs",
        reps: int = 1000,
        seed: int = 0,
        confidence: float = 0.95,
        independent: bool = False,
    ) -> Dict[str, Any]: ...
    def fold(self, stats: Sequence[Mapping[str, Any]]) -> Dict[str, Any]: ...
    def report(
        self, systems: Sequence[Sequence[Mapping[str, Any]]], *, names: Optional[Sequence[str]] = None
    ) -> Dict[str, Any]:
        """Several systems' ``stats`` as ``green cleme --format json`` prints them."""
    def signature(self) -> str: ...

def errant_parallel(orig: Sequence[str], cor: Sequence[Sequence[str]], *, merge: str = "all-merge") -> str:
    """ERRANT's ``errant_parallel -lev -merge MERGE`` without a tagger: M2 text of the tokenized
    source lines and, per annotator, the corrected lines; types are the operation tier."""

class Scorer:
    """A loaded tokenizer plus GREEN settings, reusable across calls and threads.

    ``tokenizer`` is a spec such as ``"word"`` (Python ``str.split()``, the default),
    ``"char"``, ``"zh"``, ``"ja"`` or ``"plugin:NAME"`` (see :func:`tokenizers`); ``n`` is the
    highest n-gram order; ``beta`` one number or several (``inf`` = recall only); ``norm``
    is ``none``, ``nfc``, ``nfkc``, ``lower`` or e.g. ``nfkc+lower``; ``options`` passes
    tokenizer options by key (values are converted with ``str()``). Building the tokenizer
    (e.g. loading a dictionary) happens once, here. Scoring releases the GIL.

    Raises :class:`GreenError` for an unknown tokenizer, option or normalisation, N < 1 or a
    negative beta.
    """

    def __init__(
        self,
        tokenizer: Union[str, Callable[[str], Iterable[str]]] = "word",
        n: int = 4,
        beta: Union[float, Sequence[float], None] = None,
        norm: str = "none",
        options: Optional[Mapping[str, object]] = None,
    ) -> None:
        """``tokenizer`` is a spec (see :func:`tokenizers`) or any callable ``text -> list of
        str`` (spaCy, Stanza, SentencePiece...), named in the signature as ``py:NAME@VERSION``
        from its ``name``/``version`` attributes or its module and ``__version__``."""
    @property
    def spec(self) -> str:
        """The tokenizer spec this scorer was built from (``py:...`` for a callable)."""
    @property
    def tokenizer(self) -> str:
        """The tokenizer's name as it appears in signatures."""
    @property
    def n(self) -> int:
        """The highest n-gram order."""
    @property
    def betas(self) -> List[float]:
        """The scorer's betas (default ``[2.0]``)."""
    @property
    def norm(self) -> str:
        """The normalisation setting, e.g. ``"none"``."""
    def tokenize(self, text: str) -> List[str]:
        """The tokens GREEN counts for ``text`` (after normalisation)."""
    def signature(self, refs: int, level: str = "corpus", beta: Union[float, Sequence[float], None] = None) -> str:
        """The reproducibility signature for ``refs`` references at ``level``
        (``corpus``, ``sentence`` or ``mean``)."""
    def corpus_score(
        self,
        sources: Sequence[str],
        references: Sequence[Sequence[Optional[str]]],
        hypotheses: Sequence[str],
        *,
        beta: Optional[float] = None,
    ) -> float:
        """Corpus-level GREEN of one system (a fraction; the CLI prints it x100).

        ``references`` is a list of reference sets, each one string (or ``None``) per
        sentence. ``beta`` defaults to the scorer's only beta.
        """
    def mean_score(
        self,
        sources: Sequence[str],
        references: Sequence[Sequence[Optional[str]]],
        hypotheses: Sequence[str],
        *,
        beta: Optional[float] = None,
    ) -> float:
        """Mean of the sentence-level GREEN scores of one system."""
    def sentence_scores(
        self,
        sources: Sequence[str],
        references: Sequence[Sequence[Optional[str]]],
        hypotheses: Sequence[str],
        *,
        beta: Optional[float] = None,
    ) -> List[float]:
        """Sentence-level GREEN of one system, one float per sentence."""
    def evaluate(
        self,
        sources: Sequence[str],
        references: Sequence[Sequence[Optional[str]]],
        systems: Sequence[Sequence[str]],
        *,
        beta: Union[float, Sequence[float], None] = None,
    ) -> Evaluation:
        """Every level, every beta (default: the scorer's), every system, with per-order counts."""
    def report(
        self,
        sources: Sequence[str],
        references: Sequence[Sequence[Optional[str]]],
        systems: Sequence[Sequence[str]],
        *,
        level: str = "corpus",
        beta: Union[float, Sequence[float], None] = None,
        names: Optional[Sequence[str]] = None,
    ) -> Dict[str, Any]:
        """The dict ``green --format json --level LEVEL`` prints: scores x100, per-order counts,
        signatures (names default to ``system1``, ``system2``, ...)."""
    def report_files(
        self,
        source: Union[str, os.PathLike],
        references: Sequence[Union[str, os.PathLike]],
        systems: Sequence[Union[str, os.PathLike]],
        *,
        level: str = "corpus",
        beta: Union[float, Sequence[float], None] = None,
    ) -> Dict[str, Any]:
        """``report`` of line files, named by their paths: ``green -s -r -c --format json``."""
    def stats(
        self,
        sources: Sequence[str],
        references: Sequence[Sequence[Optional[str]]],
        systems: Sequence[Sequence[str]],
        *,
        beta: Union[float, Sequence[float], None] = None,
    ) -> Dict[str, Any]:
        """GREEN's sufficient statistics of these sentences (a plain, JSON- and pickle-friendly
        dict). Shards of a corpus ``merge`` in corpus order into those of the whole corpus."""
    def score_files(
        self,
        source: Union[str, os.PathLike],
        references: Sequence[Union[str, os.PathLike]],
        systems: Sequence[Union[str, os.PathLike]],
        *,
        beta: Union[float, Sequence[float], None] = None,
        start: int = 0,
        stop: Optional[int] = None,
    ) -> Folded:
        """Corpus and mean GREEN of line files read in lock step a batch at a time (flat memory);
        ``start``/``stop``: only those lines (0-based, ``stop`` exclusive, as ``islice``)."""
    def stats_files(
        self,
        source: Union[str, os.PathLike],
        references: Sequence[Union[str, os.PathLike]],
        systems: Sequence[Union[str, os.PathLike]],
        *,
        beta: Union[float, Sequence[float], None] = None,
        start: int = 0,
        stop: Optional[int] = None,
    ) -> Dict[str, Any]:
        """``stats`` of line files read as ``score_files`` reads them, lines ``start`` to
        ``stop``: one worker's shard of the same files."""
    def score_rows(
        self,
        rows: Iterable[Tuple[str, Sequence[str], Sequence[str]]],
        *,
        systems: int = 1,
        beta: Union[float, Sequence[float], None] = None,
    ) -> Folded:
        """Corpus and mean GREEN of ``(source, [references], [hypotheses])`` rows from any
        iterable, pulled a batch at a time (flat memory)."""
    def merge(self, *shards: Mapping[str, Any]) -> Dict[str, Any]:
        """The statistics of shards given in corpus order, merged: those of one pass over all."""
    def fold(self, stats: Mapping[str, Any]) -> Folded:
        """Corpus and mean GREEN of statistics for every system and beta, with per-order counts
        and the signature: ``evaluate``'s dict without the sentence-level fields, with the
        numbers of one pass over the same sentences, bit for bit."""

def read_lines(path: Union[str, os.PathLike]) -> List[str]:
    """The lines of a text file as the CLI reads them (Python text mode; BOM kept)."""

def read_references(
    *paths: Union[str, os.PathLike], format: str = "auto", missing_annotator: str = "skip"
) -> Dict[str, Any]:
    """References per sentence from line, M2 or para files, as the CLI reads ``-r``:
    ``{"sources": [...] or None, "references": [[...], ...], "warnings": [...]}``."""

def read_multigec(
    original: Union[str, os.PathLike],
    references: Sequence[Union[str, os.PathLike]],
    systems: Sequence[Union[str, os.PathLike]] = (),
) -> Dict[str, Any]:
    """MultiGEC Markdown essays aligned by essay id: ``{"ids", "sources", "references"
    (a list per essay), "hypotheses" (a list per system file)}``."""
