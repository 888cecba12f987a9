"""The Python bindings print what the `green` binary prints, on the same inputs."""

from __future__ import annotations

import subprocess

import pytest

from conftest import fmt, fmt_plain

import green_gec as green

NAMES = ["AMU", "IITB", "POST", "SJTU"]  # CRLF, an empty line and trailing spaces among them


def run(green_bin, args, cwd):
    return subprocess.run([str(green_bin), *args], cwd=cwd, capture_output=True, text=True)


def test_corpus_scores_equal_cli(conll14, green_bin):
    args = ["-s", "source.txt", "-r", "ref0.txt", "ref1.txt", "-c", *[f"systems/{n}.txt" for n in NAMES]]
    args += ["-b", "0.5", "1", "2", "-d", "6", "-t", "word", "-n", "4"]
    out = run(green_bin, args, conll14["dir"])
    assert out.returncode == 0, out.stderr
    result = green.evaluate(sources=conll14["source"], references=conll14["refs"], systems=[conll14["systems"][n] for n in NAMES], beta=[0.5, 1, 2])
    expected = ["alpha\t" + "\t".join(fmt_plain(a) for a in result["alphas"]), "beta\t0.500000\t1.000000\t2.000000"]
    expected += [f"systems/{n}.txt\t" + "\t".join(fmt(x) for x in s["corpus"]) for n, s in zip(NAMES, result["systems"])]
    assert out.stdout.splitlines() == expected


def test_char_corpus_score_equals_cli(conll14, green_bin):
    args = ["-s", "source.txt", "-r", "ref0.txt", "ref1.txt", "-c", "systems/AMU.txt", "-b", "2", "-d", "6", "-t", "char", "-n", "6"]
    out = run(green_bin, args, conll14["dir"])
    assert out.returncode == 0, out.stderr
    score = green.corpus_score(sources=conll14["source"], references=conll14["refs"], hypotheses=conll14["systems"]["AMU"], n=6, tokenizer="char")
    assert out.stdout.splitlines()[-1] == f"systems/AMU.txt\t{score.format(6, score_only=True)}"


def test_error_messages_equal_cli(conll14, green_bin):
    """An unknown tokenizer: the Python exception carries the CLI's message."""
    args = ["-s", "source.txt", "-r", "ref0.txt", "-c", "systems/AMU.txt", "-t", "klingon"]
    out = run(green_bin, args, conll14["dir"])
    assert out.returncode != 0
    with pytest.raises(green.GreenError) as e:
        green.Scorer("klingon")
    message = str(e.value)
    assert message.startswith("unknown tokenizer 'klingon'")
    assert message in out.stderr
