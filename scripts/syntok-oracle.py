#!/usr/bin/env python3
"""Record what PyPI syntok's word tokenizer does on generated text, for green-syntok's tests.

MultiGEC-2025's scorer tokenizes each raw essay with syntok (`Tokenizer()`, its defaults) and
scores the line `' '.join(str(t).strip() for t in tokens)`. This script writes texts made up
here (random strings over the scripts of the task's 12 languages, marks, digits and spaces of
every kind, and hand-written tricky cases: abbreviations, numbers, quotes, hyphens, URLs,
contractions, paragraphs) with syntok's tokens (spacing, value) and that line, one JSON object
per line; no corpus text. crates/green-syntok/tests/syntok.rs checks green against it.

    python3 -m venv /tmp/syntok && /tmp/syntok/bin/pip install syntok==1.4.4
    /tmp/syntok/bin/python scripts/syntok-oracle.py > crates/green-syntok/tests/fixtures/syntok.jsonl
"""

import json
import random
import sys
import unicodedata

from syntok.tokenizer import Tokenizer

TRICKY = [
    "I don't know. She can't come, won't she? It isn't. DON'T! n't 'tis",
    "Ukrainian: п\u02bcять, м\u02bcяч; ім'я; don\u2019t; isn\u00b4t; can\u2032t; ain\u02bct",
    "e.g. i.e. z. B. d. h. u.s.w. Dr. Smith, U.S.A., Mr.Brown, St.Petersburg",
    "Prices: 3,14 and 1.000.000 or 1,000,000.50 at 10:30; 1990-2000; -5 +7 5% $20 20\u20ac",
    "a well-known, state-of-the-art e-mail; snake_case and CONST_NAME; 3-D x-ray 4-year-old",
    "http://www.example.com/a-b_c?x=1&y=2#frag and foo@bar.org, (see https://x.y/z).",
    "\u00abBonjour\u00bb, \u201eHallo\u201c, \u201cquoted\u201d, \u2018single\u2019, \"plain\", 'plain'",
    "Wait... what?! Really?? No!!! Hmm\u2026 ok.. fine....",
    "camelCase iPhone McDonald eBay HTML5 x.Y a!B a?B ab.CD \u00e9t\u00c9 \u03b1\u0392 \u0431\u0413",
    "Paragraph one.\n\nParagraph two\nwith a line break.\n\n\n  Indented paragraph three.  \n",
    "(parenthesised) [bracketed] {braced} ((double)) a(b)c x[1] f(x)=y",
    "l'homme dell'anno c'\u00e8 quell'altro O'Neill rock'n'roll it's '90s",
    "Ve\u010der jsem \u0161el dom\u016f. \u010cekal jsem hodinu\u2014pak odešel; \u201eProč?\u201c",
    "M\u00e4dchen stra\u00dfe \u00dcbung \u00e4\u00f6\u00fc; Se\u00f5 \u00f5ppida; \u00fe\u00f0\u00e6 \u00c6gir; \u0101\u010d\u0113\u0123\u012b\u0137\u013c\u0146\u0161\u016b\u017e",
    "\u0395\u03af\u03bd\u03b1\u03b9 \u03c9\u03c1\u03b1\u03af\u03b1; \u039d\u03b1\u03b9! \u0386\u03bd\u03b8\u03c1\u03c9\u03c0\u03bf\u03c2 \u03ba\u03b1\u03b9 \u03bf \u03ba\u03cc\u03c3\u03bc\u03bf\u03c2\u00b7",
    "\u041f\u0440\u0438\u0432\u0435\u0442, \u043c\u0438\u0440! \u0427\u0442\u043e-\u0442\u043e \u043a\u043e\u0435-\u043a\u0430\u043a. \u0407\u0436\u0430\u043a \u0491\u0430\u043d\u043e\u043a \u0454.",
    "soft\u00adhyphen non\u2011breaking en\u2013dash em\u2014dash hy\u2010phen fig\u2012dash minus\u2212sign",
    "tabs\tand\u00a0nbsp\u2009thin\u3000ideographic\u202fnarrow\u200bzwsp\u180emvs\x1cfs\x1dgs\x85nel",
    "  leading and trailing spaces  ",
    "",
    "   \n\n  ",
    "!!!",
    "--- *** ### ___",
    "# Title\n\n- item one\n- item two\n\n*emphasis* and **bold** and `code`",
    "a--b a---b a-_b a_-b _a_ -a- a-1 1-a 1-1 a,b a;b 1,a a,1 1,2",
    "x''y x'y'z 'quoted' ''double'' '''triple''' \u2019a\u2019 a\u2019 \u2019",
    "ABC.def abc.DEF abc...DEF abc..DEF a...b ...a a... .a a.",
    "\u00bfQu\u00e9? \u00a1S\u00ed! \u300c\u65e5\u672c\u300d \u0663\u0664 \u0968 \u2160\u2161 \u00bd \u00b2",
]

LOWER = "abcdefghijklmnopqrstuvwxyz\u00e1\u00e9\u00ed\u00f3\u00fa\u00fd\u010d\u010f\u011b\u0148\u0159\u0161\u0165\u016f\u017e\u00e4\u00f6\u00fc\u00df\u00f5\u00fe\u00f0\u00e6\u0101\u0113\u0123\u012b\u0137\u013c\u0146\u016b\u00e0\u00e8\u00ec\u00f2\u00f9\u00e5"
UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ\u00c1\u00c9\u010c\u0160\u017d\u00c4\u00d6\u00dc\u00d5\u00de\u00d0\u00c6\u0100\u00c5"
GREEK = "\u03b1\u03b2\u03b3\u03b4\u03b5\u03b6\u03b7\u03b8\u03b9\u03ba\u03bb\u03bc\u03bd\u03be\u03bf\u03c0\u03c1\u03c3\u03c2\u03c4\u03c5\u03c6\u03c7\u03c8\u03c9\u03ac\u03ad\u03ae\u03af\u03cc\u03cd\u03ce\u0391\u0392\u0393\u0394\u0398\u039b\u03a0\u03a3\u03a9\u0386\u0388"
CYRILLIC = "\u0430\u0431\u0432\u0433\u0434\u0435\u0436\u0437\u0438\u0439\u043a\u043b\u043c\u043d\u043e\u043f\u0440\u0441\u0442\u0443\u0444\u0445\u0446\u0447\u0448\u0449\u044a\u044b\u044c\u044d\u044e\u044f\u0451\u0456\u0457\u0454\u0491\u0410\u0411\u0412\u0413\u0414\u0416\u0418\u041a\u041f\u0420\u0421\u0422\u042f\u0406\u0407\u0404\u0490"
DIGITS = "0123456789"
MARKS = ".,;:!?'\"()[]{}-_/\\@#$%&*+=<>\u00ab\u00bb\u201e\u201c\u201d\u2018\u2019\u2026\u2013\u2014\u2010\u2011\u2012\u00ad\u058a\u05be\u0f0c\u1400\u1806\u2e17\u30a0\u00b4\u02b9\u02bc\u2032\u00bf\u00a1\u00b7\u037e"
SPACES = [" "] * 12 + ["\n"] * 3 + ["\n\n", "\t", "\u00a0", "\u2009", "\u3000", "\r\n", "\x0b", "\x0c",
                        "\x1c", "\x1f", "\x85", "\u2028", "\u200b", "\u180e", "\u202f", "\u205f"]
WORDS = ["n't", "don't", "isn't", "'s", "'re", "...", "e.g.", "Dr.", "3.5", "1,000", "well-known",
         "snake_case", "http://a.b/c-d", "(a)", "\"q\"", "a.B", "aB", "x_1", "--", "?!"]


def any_char(rng):
    """A random assigned, non-surrogate code point of the Basic Multilingual Plane."""
    while True:
        c = chr(rng.randrange(0x20, 0x10000))
        if unicodedata.category(c) not in ("Cn", "Cs", "Co"):
            return c


def piece(rng):
    r = rng.random()
    if r < 0.30:
        pool = rng.choice([LOWER, LOWER, UPPER, GREEK, CYRILLIC, LOWER + UPPER])
        return "".join(rng.choice(pool) for _ in range(rng.randint(1, 8)))
    if r < 0.40:
        return "".join(rng.choice(DIGITS) for _ in range(rng.randint(1, 4)))
    if r < 0.60:
        return rng.choice(MARKS)
    if r < 0.70:
        return rng.choice(WORDS)
    if r < 0.75:
        return any_char(rng)
    return rng.choice(SPACES)


def generated(rng, n):
    for _ in range(n):
        k = rng.randint(1, 40)
        yield "".join(piece(rng) for _ in range(k))


def main():
    rng = random.Random(20250127)
    tok = Tokenizer()
    texts = TRICKY + list(generated(rng, 3000))
    for text in texts:
        tokens = list(tok.tokenize(text))
        line = " ".join(str(t).strip() for t in tokens)
        print(json.dumps({"text": text,
                          "tokens": [[t.spacing, t.value] for t in tokens],
                          "line": line}, ensure_ascii=False))
    print(f"{len(texts)} texts", file=sys.stderr)


if __name__ == "__main__":
    main()
