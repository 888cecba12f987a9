#!/usr/bin/env python3
"""CLEME2.0 numbers from THUKElab/CLEME's own code (its current head), for green's goldens.

Runs the repository's DependentCLEME / IndependentCLEME with its HEUOEditScorer (the
CLEME2.0 scorer) on ERRANT-style M2 files and prints, per file, every row as JSON: counts
and the five indicators, at full float precision, no sentence text. Weighers: `none`
(weights 1) and `length` (the repository's LengthWeigher with main.py's corpus and sentence
defaults). The similarity weigher needs BERTScore; with `--similarity PREFIX` a stand-in
model (unigram F1 of two token multisets) replaces BERTScorer, and the pairs it was asked
to score and its scores are written to PREFIX.pairs and PREFIX.scores (in green's
`--pairs` order), so green's `--similarities` path is checked against the same weights.

The modules the code imports but the M2 path never runs (spaCy, ERRANT, LTP, OpenCC,
pypinyin, bert_score) are stubbed; the English tokenizer is the repository's own plain path
(`content.strip().split()`).

usage: cleme2-oracle.py CLEME_CHECKOUT REF.m2 HYP.m2... > out.json
"""
import importlib.machinery
import json
import sys
import types


class _Any(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Any(name)

    def __call__(self, *a, **k):
        return _Any("call")


STUBBED = {"spacy", "errant", "ltp", "opencc", "pypinyin", "blingfire", "bert_score"}


class _Stubs:
    """Imports of the stubbed packages and their submodules give an `_Any`."""

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in STUBBED:
            return importlib.machinery.ModuleSpec(name, self, is_package=True)
        return None

    def create_module(self, spec):
        m = _Any(spec.name)
        m.__path__ = []
        return m

    def exec_module(self, module):
        pass


sys.meta_path.insert(0, _Stubs())

PAIRS = []
SCORES = []


class OverlapScorer:
    """Stand-in for BERTScorer: F1 of the two texts' token multisets."""

    def __init__(self, *a, **k):
        self._num_layers = 0

    def score(self, cands, refs, **k):
        import numpy as np
        from collections import Counter

        out = []
        for c, r in zip(cands, refs):
            if "batch_size" not in k:  # get_similarity's source-target scores: unused
                PAIRS.append((c, r))
            a, b = Counter(c.split()), Counter(r.split())
            m = sum((a & b).values())
            p = m / max(1, sum(a.values()))
            q = m / max(1, sum(b.values()))
            out.append(0.0 if p + q == 0 else 2 * p * q / (p + q))
        if "batch_size" not in k:
            SCORES.extend(out)

        class T(list):
            def tolist(self):
                return list(self)

        class V(float):
            def item(self):
                return float(self)

        return [None, None, T(V(x) for x in out)]


def main():
    args = sys.argv[1:]
    similarity = None
    if args[0] == "--similarity":
        similarity, args = args[1], args[2:]
    checkout, ref, hyps = args[0], args[1], args[2:]
    sys.path.insert(0, checkout)
    import bert_score

    bert_score.BERTScorer = OverlapScorer
    import logging

    logging.disable(logging.CRITICAL)
    from core.evaluation.tokenizers import tokenizer_eng

    def call(self, content, plain=False):
        return content.strip().split()

    tokenizer_eng.TokenizerEng.__init__ = lambda self, *a, **k: None
    tokenizer_eng.TokenizerEng.__call__ = call
    import main as cli  # main.py's default weighers and scorers
    from core.evaluation.metrics import DependentCLEME, IndependentCLEME
    from core.evaluation.scorers import HEUOEditScorer
    from core.evaluation.weighers import WeigherType
    from core.readers import M2DataReaderWriter

    reader = M2DataReaderWriter()
    out = {}
    scored = []
    for hyp in hyps:
        rows = {}
        for assumption, cls in [("dependent", DependentCLEME), ("independent", IndependentCLEME)]:
            for level in ["corpus", "sentence"]:
                default = cli.DEFAULT_HEUO_SCORER_CORPUS if level == "corpus" else cli.DEFAULT_HEUO_SCORER_SENTENCE
                weighers = ["none", "length"] if similarity is None else ["similarity"]
                for weigher in weighers:
                    scorer = HEUOEditScorer(
                        factor_hit=default.factor_hit, factor_err=default.factor_err,
                        factor_und=default.factor_und, factor_ove=default.factor_ove, table_print=False)
                    kw = dict(lang="eng", scorer=scorer, enable_tqdm=False)
                    if weigher == "length":
                        kw["weigher"] = getattr(cli, f"DEFAULT_LENGTH_WEIGHER_{level.upper()}_{assumption.upper()}")
                    elif weigher == "similarity":
                        kw["weigher_type"] = WeigherType.SIMILARITY
                    metric = cls(**kw)
                    metric.errant.tokenizer = metric.tokenizer
                    PAIRS.clear()
                    SCORES.clear()
                    score, _ = metric.evaluate(reader.read(hyp), reader.read(ref))
                    for key, s in score.scores.items():
                        _, lvl, w = key.split("_")
                        if lvl != level:
                            continue
                        name = f"{assumption}-{level}-" + ("unweighted" if w == "unweighted" else weigher)
                        if w == "unweighted" and weigher != weighers[0]:
                            continue
                        rows[name] = {k: float(getattr(s, k)) for k in
                                      ["tp", "fp", "fn", "tn", "fp_ne", "fp_un", "hit", "err", "und", "ove", "com"]}
                    if similarity is not None and level == "corpus":
                        scored.extend(zip(PAIRS, SCORES))
        out[hyp.rsplit("/", 1)[-1]] = rows
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    print()
    if similarity is not None:
        # The pairs scored (text: keep out of the repository) and their scores, in order.
        with open(similarity + ".pairs", "w") as f:
            f.writelines(f"{c}\t{r}\n" for (c, r), _ in scored)
        with open(similarity + ".scores", "w") as f:
            f.writelines(f"{x!r}\n" for _, x in scored)


if __name__ == "__main__":
    main()
