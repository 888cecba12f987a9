"""Typed ERRANT from spaCy: ``errant_typed`` takes spaCy ``Doc``s (or text and an ``nlp``
callable), writes each as the CoNLL-U that ``green errant-parallel --annotations`` reads
(form, lemma, coarse POS, fine tag, head, dependency label) and runs ERRANT's pipeline in Rust
on it. spaCy is not imported here: only the Docs' attributes are read (and, for text,
``spacy.tokens.Doc`` is imported when the first line is parsed).
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence, Tuple

from ._green import GreenError, errant_parallel_conllu


def _field(value: str, what: str, line: int) -> str:
    if any(c in value for c in "\t\n\r"):
        raise GreenError(f"line {line}: the {what} {value!r} holds a tab or newline, which CoNLL-U cannot carry")
    return value or "_"


def _conllu(docs: Sequence[Any], what: str) -> Tuple[List[str], str]:
    """The lines (tokens joined by spaces) and CoNLL-U (one sentence per non-empty Doc)."""
    lines, out = [], []
    for n, doc in enumerate(docs, 1):
        words = [t.text for t in doc]
        if any(not w or any(c.isspace() for c in w) for w in words):
            raise GreenError(
                f"{what}, line {n}: a token is empty or holds whitespace (spaCy's SPACE tokens); "
                "parse the text's whitespace tokens (ERRANT's errant_parallel does: Doc(vocab, text.split()))"
            )
        lines.append(" ".join(words))
        if not words:
            continue
        for t in doc:
            head = 0 if t.head.i == t.i else t.head.i - doc[0].i + 1
            lemma = t.lemma_ if t.lemma_ != "_" or t.text == "_" else ""
            out.append(
                "%d\t%s\t%s\t%s\t%s\t_\t%d\t%s\t_\t_\n"
                % (t.i - doc[0].i + 1, t.text, _field(lemma, "lemma", n), _field(t.pos_, "POS", n),
                   _field(t.tag_, "tag", n), head, _field(t.dep_, "dependency", n))
            )
        out.append("\n")
    return lines, "".join(out)


def _is_doc(x: Any) -> bool:
    """A Doc (or Doc-like sequence of tokens) rather than a list of Docs or strings."""
    if hasattr(x, "vocab") or hasattr(x, "lemma_"):
        return True
    try:
        return len(x) > 0 and hasattr(x[0], "lemma_")
    except TypeError:
        return False


def _parsed(items: Sequence[Any], nlp: Optional[Callable[..., Any]], what: str) -> List[Any]:
    """Docs as given; text parsed with ``nlp`` as errant_parallel parses it (whitespace tokens)."""
    if isinstance(items, str):
        raise TypeError(f"{what} must be a list of Docs or strings (one per sentence), not a str")
    out = []
    for item in items:
        if isinstance(item, str):
            if nlp is None:
                raise TypeError(f"{what} holds text; give nlp= (a spaCy pipeline) to parse it, or give Docs")
            from spacy.tokens import Doc

            item = nlp(Doc(nlp.vocab, words=item.split()))
        out.append(item)
    return out


def errant_typed(
    orig: Sequence[Any],
    cor: Sequence[Sequence[Any]],
    *,
    nlp: Optional[Callable[..., Any]] = None,
    merge: str = "rules",
    classifier: str = "english",
    lev: bool = False,
) -> str:
    """ERRANT's ``errant_parallel`` (3.0.2, or MultiGEC-2025's cainesap/errant with
    ``classifier="ud"``): the typed M2 text of source sentences ``orig`` and, per annotator, a
    list of corrections ``cor``, each a spaCy ``Doc`` or, with ``nlp``, a tokenized string
    (parsed as ``nlp(Doc(nlp.vocab, text.split()))``). ``merge``: rules, all-split, all-merge
    or all-equal; ``lev``: plain Levenshtein alignment."""
    if isinstance(cor, str) or any(isinstance(c, str) or _is_doc(c) for c in cor):
        raise TypeError("cor must be a list of lists (one list of corrections per annotator)")
    orig_lines, orig_conllu = _conllu(_parsed(orig, nlp, "orig"), "orig")
    cor_lines, cor_conllu = [], []
    for k, c in enumerate(cor):
        lines, text = _conllu(_parsed(c, nlp, f"cor[{k}]"), f"cor[{k}]")
        cor_lines.append(lines)
        cor_conllu.append(text)
    return errant_parallel_conllu(
        orig_lines, cor_lines, orig_conllu, cor_conllu, merge=merge, classifier=classifier, lev=lev
    )
