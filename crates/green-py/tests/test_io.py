"""green.io reads M2, para and line files with the CLI's rules, and scores from them equal
the CLI's on MuCGEC (para), NLPCC-18 (M2, characters) and CoNLL-14 (M2, words)."""

from __future__ import annotations

import json
import subprocess

import pytest

import green_gec as green
import green_gec.io


def test_rules_on_small_files(tmp_path):
    m2 = tmp_path / "x.m2"
    m2.write_text(
        "S He go to school .\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n\n"
        "S Fine .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n"
        "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n",
        encoding="utf-8",
    )
    got = green.io.read_references(m2)
    assert got["sources"] == ["He go to school .", "Fine ."]
    # Annotator 1 has no line in sentence 1: not a reference there (m2scorer's rule).
    assert got["references_per_sentence"] == [["He goes to school ."], ["Fine .", "Fine ."]]
    assert got["references"] == [["He goes to school .", "Fine ."], [None, "Fine ."]]
    assert green.io.read_references(m2, missing_annotator="source")["references_per_sentence"][0] == [
        "He goes to school .",
        "He go to school .",
    ]
    para = tmp_path / "x.para"
    para.write_text("1\t我去了。\t没有错误\t我去过。\n", encoding="utf-8")
    assert green.io.read_references(para)["references"] == [["我去了。"], ["我去过。"]]
    lines = tmp_path / "r.txt"
    lines.write_bytes(b"a b\r\nc\rd")
    assert green.io.read_lines(lines) == ["a b", "c", "d"]
    assert green.io.read_references(lines) == {
        "sources": None,
        "references": [["a b", "c", "d"]],
        "references_per_sentence": [["a b"], ["c"], ["d"]],
        "warnings": [],
    }
    with pytest.raises(green.GreenError, match="unknown reference format"):
        green.io.read_references(lines, format="xml")
    with pytest.raises(green.GreenError, match="cannot read"):
        green.io.read_lines(tmp_path / "missing.txt")


def test_multigec_essays_score_like_the_cli(tmp_path, green_bin):
    blocks = lambda essays: "".join(f"### essay_id = {i}\n{t}\n\n" for i, t in essays)  # noqa: E731
    (tmp_path / "orig.md").write_text(blocks([("a", "I goes.\n\nHe go."), ("b", "Cats is.")]), encoding="utf-8")
    (tmp_path / "ref1.md").write_text(blocks([("a", "I go.\n\nHe goes."), ("b", "Cats are.")]), encoding="utf-8")
    (tmp_path / "ref2.md").write_text(blocks([("b", "The cats are.")]), encoding="utf-8")
    (tmp_path / "hyp.md").write_text(blocks([("b", "Cats are."), ("a", "I go.\n\nHe go.")]), encoding="utf-8")
    data = green.io.read_multigec(
        tmp_path / "orig.md", references=[tmp_path / "ref1.md", tmp_path / "ref2.md"], systems=[tmp_path / "hyp.md"]
    )
    assert data["ids"] == ["a", "b"]
    assert data["sources"][0] == "I goes.\n\nHe go."
    assert data["references_per_sentence"] == [["I go.\n\nHe goes."], ["Cats are.", "The cats are."]]
    assert data["hypotheses"] == [["I go.\n\nHe go.", "Cats are."]]
    mine = green.Scorer().corpus_score(sources=data["sources"], references=data["references"], hypotheses=data["hypotheses"][0])
    cli = cli_corpus(green_bin, ["-s", "orig.md", "-r", "ref1.md", "ref2.md", "-c", "hyp.md"], cwd=tmp_path)
    assert mine.score == cli


def cli_corpus(green_bin, args, cwd=None):
    out = subprocess.run([str(green_bin), *args, "-b", "2", "--format", "json"], capture_output=True, text=True, cwd=cwd)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)["systems"][0]["results"][0]["corpus"]


def test_scores_from_readers_equal_the_cli(shared, green_bin, tmp_path):
    data = shared / "data"
    mucgec = data / "zh/mucgec/MuCGEC_dev.txt"
    refs = green.io.read_references(mucgec, format="para")
    first = refs["references"][0]
    hyp = tmp_path / "first.txt"
    hyp.write_text("".join(f + "\n" for f in first), encoding="utf-8")
    mine = green.Scorer("zh:char").corpus_score(sources=refs["sources"], references=refs["references"], hypotheses=first)
    assert mine.score == cli_corpus(green_bin, ["-r", str(mucgec), "--ref-format", "para", "-c", str(hyp), "-t", "zh:char"])

    nlpcc = data / "zh/nlpcc18/nlpcc2018_official.ref.m2.char"
    refs = green.io.read_references(nlpcc)
    sources = refs["sources"]
    src = tmp_path / "src.txt"
    src.write_text("".join(s + "\n" for s in sources), encoding="utf-8")
    mine = green.Scorer("char:nospace").corpus_score(sources=sources, references=refs["references"], hypotheses=sources)
    assert mine.score == cli_corpus(green_bin, ["-r", str(nlpcc), "-c", str(src), "-t", "char:nospace"])

    conll = data / "conll14"
    refs = green.io.read_references(conll / "conll14st-test.m2")
    amu = green.io.read_lines(conll / "systems/AMU.txt")
    mine = green.Scorer("word").corpus_score(sources=refs["sources"], references=refs["references"], hypotheses=amu)
    assert mine.score == cli_corpus(green_bin, ["-r", "conll14st-test.m2", "-c", "systems/AMU.txt"], cwd=conll)
