#!/usr/bin/env python3
"""Runs kokeman/SOME's own some.py on a models directory and writes its scores as JSON, the
goldens green-neural's tests compare with.

    python3 scripts/some-oracle.py SOME_PY MODELS_DIR SOURCE HYPOTHESES > golden.json

SOME_PY is the repository's some.py (not part of green). Two things are redirected so it runs
here: its `torch.device('cuda')` becomes the CPU, and its tokenizer, hard-wired to
`bert-base-cased` (downloaded at run time), is read from MODELS_DIR (vocab.txt,
tokenizer_config.json). Everything else — truncation, batching, normalisation, weights — is
some.py's. The JSON holds numbers only (per sentence: the three raw regressor outputs and the
SOME score; the system score), never text, so goldens of licensed corpora can be committed.
"""
import argparse
import importlib.util
import json
import sys

import torch
from transformers import BertTokenizer


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("some_py")
    ap.add_argument("models")
    ap.add_argument("source")
    ap.add_argument("hypotheses")
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--system-only", action="store_true", help="only some.py's own scoring (one pass, for timing): print the system score")
    args = ap.parse_args()

    spec = importlib.util.spec_from_file_location("some", args.some_py)
    some = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(some)

    class Torch:
        def __getattr__(self, name):
            return getattr(torch, name)

        @staticmethod
        def device(_name):
            return torch.device("cpu")

    class Tokenizer:
        @staticmethod
        def from_pretrained(_name):
            return BertTokenizer.from_pretrained(args.models)

    some.torch = Torch()
    some.BertTokenizer = Tokenizer

    scorer_args = argparse.Namespace(
        g_dir=f"{args.models}/grammer",
        f_dir=f"{args.models}/fluency",
        m_dir=f"{args.models}/meaning",
        weight_g=0.55,
        weight_f=0.43,
        weight_m=0.02,
        batch_size=args.batch_size,
        model_type="bert",
        system=False,
    )
    scorer = some.Scorer(scorer_args)
    # As some.py's main reads its files.
    srcs = [l.rstrip() for l in open(args.source)]
    hyps = [l.rstrip() for l in open(args.hypotheses)]
    scorer.add(srcs, hyps)
    if args.system_only:
        scores = scorer.score()
        print(json.dumps({"system": float(sum(scores) / len(scores)), "sentences": [float(x) for x in scores]}))
        return
    raw = [scorer.predict(task=t).reshape(-1).tolist() for t in ("grammer", "fluency", "meaning")]
    scores = scorer.score()
    system = sum(scores) / len(scores)
    json.dump(
        {
            "versions": {"torch": torch.__version__, "transformers": sys.modules["transformers"].__version__},
            "sentences": [
                {"g": g, "f": f, "m": m, "some": float(s)}
                for g, f, m, s in zip(raw[0], raw[1], raw[2], scores)
            ],
            "system": float(system),
        },
        sys.stdout,
        indent=0,
    )
    print()


if __name__ == "__main__":
    main()
