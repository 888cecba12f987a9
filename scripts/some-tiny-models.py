#!/usr/bin/env python3
"""Writes the tiny random SOME models that green-neural's tests run on.

Three BertForSequenceClassification regressors (num_labels=1) of a few layers and a small
hidden size, on a WordPiece vocabulary written here (BERT's special tokens, every printable
ASCII character, '##' pieces for letters and digits, and a few hundred frequent English
words), laid out as SOME's models directory: grammer/, fluency/, meaning/ and the tokenizer
(vocab.txt, tokenizer_config.json) beside them. grammer/ and fluency/ are saved as
model.safetensors, meaning/ as pytorch_model.bin, so both weight formats are tested.

    python3 scripts/some-tiny-models.py OUT_DIR [--hidden 32 --layers 2 --heads 4 --inter 64]

Random weights with a fixed seed; a larger initialiser range than BERT's so that sentences
get visibly different scores. Needs torch and transformers.
"""
import argparse
import json
import os
import string

import torch
from transformers import BertConfig, BertForSequenceClassification

WORDS = """the of and to a in is that for it as was with be by on not he i this are or his
from at which but have an they you were her she there had been one all we can their has
more if will would who so no other its do some than them what these may when into only
about could time also any then two my first should very people our most over such those
make like made after many before must through well where me even because much new used way
does each good between both same under while being last three work still own here might
long great since year years against just day without another however life school student
students government system problem problems society technology people's health family
information help need use take give think know see want find tell become show leave feel
seem try call ask put mean keep let begin hold turn start run move live believe bring happen
write provide sit stand lose pay meet include continue set learn change lead understand watch
follow stop create speak read allow add spend grow open walk win offer remember love consider
appear buy wait serve die send expect build stay fall cut reach kill remain suggest raise pass
sell require report decide pull genetic testing risk disease children parents elderly social
media public private important different large small old young high low few right left better
best less least already again always never often sometimes now today however therefore
although though whether also""".split()


def vocab():
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    chars = [c for c in string.printable if not c.isspace()]
    pieces = ["##" + c for c in string.ascii_letters + string.digits]
    words, seen = [], set(specials + chars + pieces)
    for w in WORDS:
        for form in (w, w.capitalize()):
            if form not in seen and all(ch.isalnum() for ch in form):
                seen.add(form)
                words.append(form)
    # Two accented letters, so that the tests see NFC normalisation at work.
    accents = ["é", "##é", "ï", "##ï"]
    return specials + chars + pieces + words + ["##s", "##ed", "##ing", "##ly"] + accents


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--inter", type=int, default=64)
    ap.add_argument("--vocab", help="an existing vocab.txt to use instead of the tiny one")
    ap.add_argument("--init", type=float, default=0.2, help="initializer_range")
    ap.add_argument("--bin", action="store_true", help="every model as pytorch_model.bin, as the authors' gfm-models")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.vocab:
        tokens = [l.rstrip("\n") for l in open(args.vocab, encoding="utf-8")]
    else:
        tokens = vocab()
    with open(os.path.join(args.out, "vocab.txt"), "w", encoding="utf-8") as f:
        f.write("".join(t + "\n" for t in tokens))
    with open(os.path.join(args.out, "tokenizer_config.json"), "w") as f:
        json.dump({"do_lower_case": False, "model_max_length": 512}, f)
    for seed, name in enumerate(["grammer", "fluency", "meaning"]):
        torch.manual_seed(1000 + seed)
        config = BertConfig(
            vocab_size=len(tokens),
            hidden_size=args.hidden,
            num_hidden_layers=args.layers,
            num_attention_heads=args.heads,
            intermediate_size=args.inter,
            max_position_embeddings=512 if args.vocab else 128,
            num_labels=1,
            initializer_range=args.init,
        )
        model = BertForSequenceClassification(config).eval()
        with torch.no_grad():
            # Outputs around the middle of SOME's 1-4 scale.
            model.classifier.bias.fill_(2.5)
        model.save_pretrained(
            os.path.join(args.out, name), safe_serialization=(name != "meaning" and not args.bin)
        )


if __name__ == "__main__":
    main()
