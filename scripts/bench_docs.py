"""The one way the bench scripts put their table into a docs page: between the page's
`<!-- NAME:begin -->` and `<!-- NAME:end -->` markers, so the docs show a run's output and
never a hand-copied figure."""

import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def write_block(page, name, table):
    """Replace what stands between NAME's markers in docs/`page` with `table`; its path."""
    path = os.path.join(ROOT, "docs", page)
    text = open(path, encoding="utf-8").read()
    begin, end = f"<!-- {name}:begin -->\n", f"<!-- {name}:end -->"
    at, to = text.index(begin) + len(begin), text.index(end)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text[:at] + table + text[to:])
    return path
