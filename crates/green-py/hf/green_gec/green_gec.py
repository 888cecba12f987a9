"""GREEN for Hugging Face `evaluate`: an alignment-free n-gram F-score for grammatical error
correction in any language (Koyama et al., INLG 2024), computed by the `green` package
(`pip install ./crates/green-py`), with the numbers of its CLI."""

import datasets
import evaluate

import green_gec as green

_CITATION = """\
@inproceedings{koyama-etal-2024-green,
    title = "n-gram F-score for Evaluating Grammatical Error Correction",
    author = "Koyama, Shota and Nagata, Ryo and Takamura, Hiroya and Okazaki, Naoaki",
    booktitle = "Proceedings of the 17th International Natural Language Generation Conference (INLG 2024)",
    year = "2024",
}
"""

_DESCRIPTION = """\
GREEN treats the source, a reference and a correction as multisets of n-grams, splits every
n-gram into seven regions (kept, deleted, inserted; each done right, over or under) and computes
precision, recall and F-beta from them: no alignment, no tagger, any language. With several
references per sentence, each sentence is scored against the reference that suits it best.
"""

_KWARGS_DESCRIPTION = """
Args:
    sources (list of str): the uncorrected sentences.
    predictions (list of str): the system's corrections, one per source.
    references (list of list of str): one or more reference corrections per source.
    tokenizer (str): "word" (Python str.split, default), "char", "zh", "ja", "en", ...
    n (int): highest n-gram order (default 4).
    beta (float): F-beta weight of recall (default 2.0).
    norm (str): text normalisation: none, nfc, nfkc, lower, ... (default none).
Returns:
    green: corpus-level GREEN (0..1), green_mean: the mean of sentence-level GREEN,
    signature: the settings that produced the numbers.
Examples:
    >>> metric = evaluate.load("green_gec.py")
    >>> metric.compute(sources=["He go to school ."], predictions=["He goes to the school ."],
    ...                references=[["He goes to school ."]])["green"]
    0.7217...
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class GreenGec(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features(
                {
                    "sources": datasets.Value("string"),
                    "predictions": datasets.Value("string"),
                    "references": datasets.Sequence(datasets.Value("string")),
                }
            ),
            reference_urls=["https://github.com/shotakoyama/green"],
        )

    def _compute(self, sources, predictions, references, tokenizer="word", n=4, beta=2.0, norm="none"):
        # `evaluate` hands references over one list per prediction: the package takes that
        # layout by name, so it is never read as one list per reference set.
        scorer = green.Scorer(tokenizer, n=n, beta=beta, norm=norm)
        stats = scorer.stats(sources=sources, references_per_sentence=references, systems=[predictions])
        report = scorer.fold(stats)
        system = report["systems"][0]
        return {"green": system["corpus"][0], "green_mean": system["mean"][0], "signature": report["signature"]}
