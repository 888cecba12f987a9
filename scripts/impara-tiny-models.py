#!/usr/bin/env python3
"""Writes the tiny random IMPARA models that green-neural's tests run on.

    python3 scripts/impara-tiny-models.py VOCAB_TXT OUT_DIR [--hidden 32 --layers 2 --heads 4 --inter 64]

VOCAB_TXT is the small WordPiece vocabulary of the SOME models
(crates/green-neural/tests/data/some-tiny/vocab.txt). Three directories, one per layout
IMPARA's models come in:

- se/: the similarity estimator, a BERT encoder as the Hub's bert-base-cased is stored (a
  BertForPreTraining checkpoint: names under `bert.`, LayerNorm parameters named gamma/beta,
  the pre-training heads beside it), with its fast tokenizer (tokenizer.json, vocab.txt);
- qe/: a quality estimator as gec-metrics loads it (gotutiyan/IMPARA-QE on the Hub): a
  BertForSequenceClassification with one output and its own tokenizer files;
- qe-trained/: a quality estimator as gotutiyan/IMPARA's train_qe.py leaves it: the
  classifier (pytorch_model.bin) and impara_config.json naming the encoder it was trained
  from, no tokenizer (the similarity estimator's is used).

Random weights with fixed seeds. Needs torch, transformers and safetensors.
"""
import argparse
import json
import os
import shutil

import torch
from safetensors.torch import load_file, save_file
from transformers import (
    AutoModel,
    BertConfig,
    BertForPreTraining,
    BertForSequenceClassification,
    BertTokenizerFast,
)


def save_tokenizer(tokenizer, vocab, d):
    tokenizer.save_pretrained(d)
    # The tiny vocabulary lists ##s twice; the saved vocab.txt would drop a line and shift
    # the ids after it, so the original is kept (tokenizer.json maps ##s as it does).
    shutil.copy(vocab, os.path.join(d, "vocab.txt"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("vocab")
    ap.add_argument("out")
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--inter", type=int, default=64)
    ap.add_argument("--init", type=float, default=0.2, help="initializer_range")
    args = ap.parse_args()
    tokenizer = BertTokenizerFast(vocab_file=args.vocab, do_lower_case=False)
    config = lambda **kw: BertConfig(
        vocab_size=sum(1 for _ in open(args.vocab, encoding="utf-8")),
        hidden_size=args.hidden,
        num_hidden_layers=args.layers,
        num_attention_heads=args.heads,
        intermediate_size=args.inter,
        max_position_embeddings=128,
        initializer_range=args.init,
        **kw,
    )

    se = os.path.join(args.out, "se")
    torch.manual_seed(2000)
    BertForPreTraining(config()).eval().save_pretrained(se)
    save_tokenizer(tokenizer, args.vocab, se)
    # The Hub's bert-base-cased names LayerNorm parameters as the original TensorFlow did.
    path = os.path.join(se, "model.safetensors")
    tensors = load_file(path)
    renamed = {
        k.replace("LayerNorm.weight", "LayerNorm.gamma").replace("LayerNorm.bias", "LayerNorm.beta"): v
        for k, v in tensors.items()
    }
    save_file(renamed, path, metadata={"format": "pt"})
    # transformers reads the renamed checkpoint back as the model it saved.
    back = AutoModel.from_pretrained(se)
    ids = torch.tensor([[2, 50, 60, 3]])
    saved = BertForPreTraining.from_pretrained(se).bert
    assert torch.equal(back(ids).last_hidden_state, saved(ids).last_hidden_state)

    for seed, name in [(2001, "qe"), (2002, "qe-trained")]:
        torch.manual_seed(seed)
        model = BertForSequenceClassification(config(num_labels=1)).eval()
        d = os.path.join(args.out, name)
        if name == "qe":
            model.save_pretrained(d)
            save_tokenizer(tokenizer, args.vocab, d)
        else:
            model.save_pretrained(d, safe_serialization=False)
            with open(os.path.join(d, "impara_config.json"), "w") as f:
                json.dump({"model_id": "bert-base-cased", "epoch": 0, "seed": seed}, f, indent=4)


if __name__ == "__main__":
    main()
