#!/usr/bin/env python3
"""GoToScorer numbers from gec-metrics' own code (gotutiyan/gec-metrics), for green's goldens.

gec-metrics extracts edits with ERRANT (spaCy); here its `edit_extraction` returns the edits
of M2 files instead (annotator 0 of each hypothesis file, annotator REF_ID of the reference
file; correction tokens joined by a space, `-NONE-` = empty), and everything after that is
the repository's code: `GoToScorer.generate_chunks`, `annotate`, `score_base`, the corpus
and sentence aggregation of its ERRANT base class, and `annotate_weight` of
`gecmetrics-gen-gotoscorer-weight` (its JSON weight file is written with its own `main`'s
`json.dump`). The packages it imports but this path never runs (errant, spacy, gecommon,
trueskill) are stubbed.

usage: gotoscorer-oracle.py GEC_METRICS_SRC REF_ID REF.m2 WEIGHTS_OUT.json HYP.m2... > out.json
Prints per file: corpus TP/FP/FN/TN/F unweighted and with the weight file made from all the
given files, and the sentence F lists (numbers only).
"""
import importlib.machinery
import json
import sys
import types

STUBBED = {"errant", "spacy", "gecommon", "trueskill"}


class _Any(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Any(name)

    def __call__(self, *a, **k):
        return _Any("call")


class _Stubs:
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


def read_m2(path):
    """[(source, {annotator: [(start, end, correction, type)]})]"""
    out = []
    for block in open(path, encoding="utf-8").read().strip().split("\n\n"):
        lines = block.split("\n")
        src = lines[0][2:]
        edits = {}
        for line in lines[1:]:
            if not line.startswith("A "):
                continue
            f = line[2:].split("|||")
            start, end = map(int, f[0].split())
            toks = f[2].split()
            if toks and toks[0] == "-NONE-":
                toks = []
            edits.setdefault(int(f[-1]), []).append((start, end, " ".join(toks), f[1]))
        out.append((src, edits))
    return out


def main():
    src_dir, ref_id, ref_path, weights_out, hyp_paths = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5:]
    pkg = types.ModuleType("gec_metrics")
    pkg.__path__ = [src_dir + "/gec_metrics"]
    sys.modules["gec_metrics"] = pkg
    metrics = types.ModuleType("gec_metrics.metrics")
    metrics.__path__ = [src_dir + "/gec_metrics/metrics"]
    sys.modules["gec_metrics.metrics"] = metrics
    from gec_metrics.metrics import gotoscorer as g

    metrics.GoToScorer = g.GoToScorer
    from gec_metrics.cli import gen_gotoscorer_weight as gen

    table = {}  # (source, key) -> edits

    def edit_extraction(self, src, trg):
        return self.filter_edits(table[(src, trg)])

    g.GoToScorer.edit_extraction = edit_extraction
    g.ERRANT.__init__ = lambda self, config=None: setattr(self, "config", config or self.Config())

    ref = read_m2(ref_path)
    hyps = [read_m2(p) for p in hyp_paths]
    for src, edits in ref:
        key = f"REF{ref_id}"
        table[(src, key)] = [types.SimpleNamespace(o_start=s, o_end=e, c_str=c, type=t)
                             for s, e, c, t in edits.get(ref_id, []) if not (s == e == -1)]
    for h, hyp in enumerate(hyps):
        for src, edits in hyp:
            table[(src, f"HYP{h}")] = [types.SimpleNamespace(o_start=s, o_end=e, c_str=c, type=t)
                                       for s, e, c, t in edits.get(0, []) if not (s == e == -1)]
    sources = [s for s, _ in ref]
    refs = [[f"REF{ref_id}"] * len(sources)]
    # The weight file, exactly as the generator's main() writes it.
    scorer = g.GoToScorer(g.GoToScorer.Config(no_weight=True))
    data = [gen.annotate_weight(source=s, reference=f"REF{ref_id}",
                                hypotheses=[f"HYP{h}" for h in range(len(hyps))], gotoscorer=scorer)
            for s in sources]
    with open(weights_out, "w") as fp:
        json.dump(data, fp, indent=2)
    out = {}
    for h, path in enumerate(hyp_paths):
        row = {}
        for weighted in [False, True]:
            for beta in [0.5]:
                cfg = g.GoToScorer.Config(no_weight=not weighted, weight_file=weights_out, beta=beta)
                sc = g.GoToScorer(cfg)
                hypo = [f"HYP{h}"] * len(sources)
                c = sc.score_corpus_verbose(sources, hypo, refs)
                sent = sc.score_sentence(sources, hypo, refs)
                name = "weighted" if weighted else "unweighted"
                row[name] = {"tp": c.tp, "fp": c.fp, "fn": c.fn, "tn": c.tn, "p": c.precision,
                             "r": c.recall, "f": c.f, "sentence_f": sent}
        out[path.rsplit("/", 1)[-1]] = row
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
