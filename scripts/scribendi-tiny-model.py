#!/usr/bin/env python3
"""Writes the tiny random GPT-2 that green-neural's Scribendi tests run on.

A GPT2LMHeadModel of a few layers and a small width, with a byte-level BPE tokenizer trained
here on a few hundred words written here (every byte is in its alphabet, so any text
tokenizes), saved as `save_pretrained` writes them (model.safetensors, tokenizer.json,
vocab.json, merges.txt).

    python3 scripts/scribendi-tiny-model.py OUT_DIR [--text FILE ... --vocab-size N --model-vocab N]

--text trains the BPE on those files instead (up to --vocab-size tokens) and --model-vocab
gives the model more rows than the BPE has tokens (never used), as scripts/bench-neural.py
makes a GPT-2 of gpt2's shape.

Random weights with a fixed seed; a larger initialiser range than GPT-2's so that sentences
get visibly different perplexities. Needs torch, transformers and tokenizers.
"""
import argparse
import os

import torch
from tokenizers import ByteLevelBPETokenizer
from transformers import GPT2Config, GPT2LMHeadModel, GPT2TokenizerFast

TEXT = """The government should spend more money on public health because many elderly people
need help . Genetic testing is an important tool for families who want to know the risk of a
disease . Students should learn to use information and technology in school . I think that
technology has changed our lives , and people often use social media to find information .
There are many risks when parents do not know about the disease . He goes to school every day
. In my opinion , the society must help those who are ill . However , it is also important to
consider the privacy of the patients . Therefore , we should not tell other people about the
results of the test without their permission . This is a sentence that has some errors in it
. They were talking about the problem , which was very difficult to solve ."""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--positions", type=int, default=1024)
    ap.add_argument("--init", type=float, default=0.2, help="initializer_range")
    ap.add_argument("--text", action="append", help="train the BPE on this file (repeatable)")
    ap.add_argument("--vocab-size", type=int, default=500, help="the BPE's size")
    ap.add_argument("--model-vocab", type=int, default=0, help="the model's vocabulary (default: the BPE's)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    bpe = ByteLevelBPETokenizer()
    text = [open(f, encoding="utf-8").read() for f in args.text] if args.text else [TEXT]
    bpe.train_from_iterator(
        text, vocab_size=args.vocab_size, min_frequency=1, special_tokens=["<|endoftext|>"]
    )
    tokenizer = GPT2TokenizerFast(
        tokenizer_object=bpe._tokenizer,
        bos_token="<|endoftext|>",
        eos_token="<|endoftext|>",
        unk_token="<|endoftext|>",
    )
    tokenizer.save_pretrained(args.out)
    eot = tokenizer.convert_tokens_to_ids("<|endoftext|>")
    torch.manual_seed(2000)
    config = GPT2Config(
        vocab_size=max(len(tokenizer), args.model_vocab),
        n_positions=args.positions,
        n_embd=args.hidden,
        n_layer=args.layers,
        n_head=args.heads,
        bos_token_id=eot,
        eos_token_id=eot,
        initializer_range=args.init,
    )
    GPT2LMHeadModel(config).eval().save_pretrained(args.out)


if __name__ == "__main__":
    main()
