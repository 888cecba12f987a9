"""``HtmlReport``: ``green report`` from Python, a page to save, show in a notebook, or read as
data. The page and the data are the command's, from the same model, so they cannot disagree."""

from __future__ import annotations

import html
import json
import os
import tempfile
from typing import Any, Dict, List, Optional

from . import _check

Path = Any  # str or os.PathLike


class HtmlReport:
    """One self-contained HTML page (``.html``) and the data it shows (``.data``, the dict
    ``green report --format json`` prints). ``save(path)`` writes the page, or the data when
    the path ends in ``.json``; in Jupyter the report shows itself in a frame."""

    __slots__ = ("html", "_json", "_data")

    def __init__(self, page: str, data_json: str) -> None:
        self.html = page
        self._json = data_json
        self._data: Optional[Dict[str, Any]] = None

    @property
    def data(self) -> Dict[str, Any]:
        """The report's data: scores, intervals, paired tests, types, buckets, sentences."""
        if self._data is None:
            self._data = json.loads(self._json)
        return self._data

    @property
    def json(self) -> str:
        """The data as the JSON text ``green report --format json`` prints (one line)."""
        return self._json

    def save(self, path: Path) -> None:
        """Write the page (or the data, for a ``.json`` path) at once: a reader never sees
        half a file, and an old file is left as it was when writing fails."""
        path = os.fspath(path)
        text = self._json if str(path).lower().endswith(".json") else self.html
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise _check.GreenError(f"cannot write {path}: the directory {folder} does not exist; create it first")
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".green-report-", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
                f.write(text)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise

    def _repr_html_(self) -> str:
        return (
            '<iframe style="width:100%;height:640px;border:1px solid #ccc" sandbox="allow-scripts" '
            f'srcdoc="{html.escape(self.html, quote=True)}"></iframe>'
        )

    def __repr__(self) -> str:
        systems = [s["name"] for s in self.data.get("systems", [])]
        return f"HtmlReport(title={self.data.get('title')!r}, systems={systems!r}, {len(self.html)} characters of HTML)"


def metric_list(metrics: Optional[Any]) -> List[str]:
    """``metrics`` as a list of names: None (the default), a comma-separated str or a list."""
    if metrics is None:
        return []
    if isinstance(metrics, str):
        return [m for m in metrics.split(",") if m.strip()]
    return [str(m) for m in metrics]
