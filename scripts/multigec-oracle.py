#!/usr/bin/env python3
"""Run MultiGEC-2025's official GLEU + ERRANT scorer (spraakbanken/multigec-2025,
scripts/local_eval/gleu_errant/gleu_errant_evaluation.py) on small inputs written for the tests,
to record what `green multigec` is checked against: its scores.csv.

INPUT holds the task's layout: ref/{lang}-{corpus}-orig-{split}.md and -ref{N}-{split}.md,
res/{lang}-{corpus}-hypo{N}-{split}.md. The script
  1. (unless --no-conllu) writes beside each Markdown file its CoNLL-U (FILE.conllu): per essay a `# newdoc id = ID`
     line, then the essay's tokens as the scorer tokenizes them (its own syntok step,
     `md_to_dict`), one sentence per run of tokens ending in . ! or ?, every other column `_`;
  2. prepares what the organisers shipped in ref/: the original and the references one essay
     per line (`.tmp`, through the scorer's own `md_to_dict`) and the references' M2
     (cainesap/errant's `errant_parallel -lang L`, the command the scorer has commented out);
  3. runs the scorer itself (`gleu_errant_evaluation.py WORK OUT SPLIT`) in a copy of INPUT and
     copies OUT/scores.csv to INPUT/scores.csv, and the M2 files it compared to INPUT/m2/.

The scorer needs spaCy-UDPipe models that cannot be fetched here, and none is used: cainesap's
`Annotator.parse` (tokenise=True, the default of `errant_parallel`) replaces the pipeline's
tokenizer, which is where spacy-udpipe runs UDPipe, by a whitespace tokenizer, so every Doc
it scores has words only (no lemma, POS, tag or dependency). A stand-in `spacy_udpipe` whose
`load_from_path` returns `spacy.blank(lang)` is therefore exact (Icelandic, which goes
through the UDPipe 2 web service, is the exception and is not covered).

    /tmp/udv/bin/pip install 'spacy>=3.8,<3.9' rapidfuzz syntok pandas gleu==1.1.0
    /tmp/udv/bin/pip install --no-deps -e CHECKOUT_OF_cainesap/errant
    # the scorer's three files (gleu_errant_evaluation.py, utils_transform_markdown_to_one_essay_per_line.py,
    # cleanconll.py) in /tmp/mgofficial (spraakbanken/multigec-2025 a9aa8b5)
    /tmp/udv/bin/python scripts/multigec-oracle.py --official /tmp/mgofficial \\
        crates/green-cli/tests/fixtures/multigec
    /tmp/udv/bin/python scripts/multigec-oracle.py --official /tmp/mgofficial --no-conllu \\
        crates/green-cli/tests/fixtures/multigec-raw
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

STAND_INS = {
    "spacy_udpipe.py": "import spacy\n"
                       "class UDPipeTokenizer: pass\n"
                       "def load(lang, *a, **k): return spacy.blank(lang)\n"
                       "def load_from_path(lang, *a, **k): return spacy.blank(lang)\n",
    "spacy_conll/__init__.py": "def init_parser(*a, **k): raise RuntimeError('stand-in')\n",
    "spacy_conll/parser.py": "class ConllParser: pass\n",
}


def write_stand_ins(root):
    for name, text in STAND_INS.items():
        path = os.path.join(root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)


def conllu(essays):
    """CoNLL-U of essays (id -> the scorer's tokenized line), words only."""
    out = []
    for essay_id, line in essays.items():
        out.append("# newdoc id = %s\n" % essay_id)
        sentence = []
        tokens = line.split()
        for k, tok in enumerate(tokens):
            sentence.append(tok)
            if tok in (".", "!", "?") or k == len(tokens) - 1:
                for i, w in enumerate(sentence):
                    out.append("%d\t%s\t_\t_\t_\t_\t_\t_\t_\t_\n" % (i + 1, w))
                out.append("\n")
                sentence = []
    return "".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--official", required=True, help="directory of the scorer's scripts")
    ap.add_argument("--split", default="dev")
    ap.add_argument("--no-conllu", action="store_true",
                    help="write no CoNLL-U: green then tokenizes the Markdown as the scorer does")
    ap.add_argument("input")
    a = ap.parse_args()
    sys.path.insert(0, os.path.abspath(a.official))
    from utils_transform_markdown_to_one_essay_per_line import md_to_dict

    stand_ins = tempfile.mkdtemp()
    write_stand_ins(stand_ins)
    env = dict(os.environ, PYTHONPATH=stand_ins,
               PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
    work = tempfile.mkdtemp()
    for sub in ("ref", "res"):
        os.makedirs(os.path.join(work, sub))
        for name in sorted(os.listdir(os.path.join(a.input, sub))):
            if not name.endswith(".md"):
                continue
            path = os.path.join(a.input, sub, name)
            shutil.copy(path, os.path.join(work, sub, name))
            with open(path) as f:
                essays = md_to_dict(f.read())
            if not a.no_conllu:
                with open(path[:-3] + ".conllu", "w", encoding="utf-8", newline="\n") as f:
                    f.write(conllu(essays))
    ref = os.path.join(work, "ref")
    for name in sorted(os.listdir(ref)):
        if not name.endswith("-orig-%s.md" % a.split):
            continue
        corpus = name[: -len("-orig-%s.md" % a.split)]
        with open(os.path.join(ref, name)) as f:
            orig = md_to_dict(f.read())
        tmp = lambda kind: os.path.join(ref, "%s-%s-%s.tmp" % (corpus, kind, a.split))
        with open(tmp("orig"), "w") as f:
            f.writelines(orig[i].replace("\n", "\t") + "\n" for i in orig)
        refs = []
        n = 1
        while os.path.exists(os.path.join(ref, "%s-ref%d-%s.md" % (corpus, n, a.split))):
            with open(os.path.join(ref, "%s-ref%d-%s.md" % (corpus, n, a.split))) as f:
                r = md_to_dict(f.read())
            with open(tmp("ref%d" % n), "w") as f:
                f.writelines(r[i].replace("\n", "\t") + "\n" for i in orig)
            refs.append(tmp("ref%d" % n))
            n += 1
        subprocess.run(["errant_parallel", "-orig", tmp("orig"), "-cor"] + refs +
                       ["-out", tmp("ref1")[:-4] + ".m2", "-lang", corpus[:2]],
                       env=env, check=True, cwd=a.official, stdout=subprocess.DEVNULL)
    out = os.path.join(work, "out")
    os.makedirs(out)
    subprocess.run([sys.executable, "gleu_errant_evaluation.py", work, out, a.split], env=env,
                   check=True, cwd=a.official, stdout=subprocess.DEVNULL)
    shutil.copy(os.path.join(out, "scores.csv"), os.path.join(a.input, "scores.csv"))
    m2 = os.path.join(a.input, "m2")
    os.makedirs(m2, exist_ok=True)
    for sub in ("ref", "res"):
        for name in sorted(os.listdir(os.path.join(work, sub))):
            if name.endswith(".m2"):
                shutil.copy(os.path.join(work, sub, name), os.path.join(m2, name))
    with open(os.path.join(out, "scores.csv")) as f:
        print(f.read(), end="")
    shutil.rmtree(work)
    shutil.rmtree(stand_ins)


if __name__ == "__main__":
    main()
