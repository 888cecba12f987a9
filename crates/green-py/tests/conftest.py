"""Shared helpers: reading data like the reference does, formatting like the CLI prints.

Real-data tests use the `shared` fixture: $GREEN_SHARED (a relative path is taken from the
repository root), else `../shared` beside the repository; it fails, never skips, when
neither holds the data. The CLI comparisons use $GREEN_BIN, else the repository's
target/release/green, which `cargo build --release` brings up to date once per session (as
it does the regex plugin), so `pytest crates/green-py/tests` runs from a fresh checkout with
the package installed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
sys.path.insert(0, str(HERE.parent / "bench"))

SYSTEMS = ["AMU", "CAMB", "CUUI", "IITB", "INPUT", "IPN", "NTHU", "PKU", "POST", "RAC", "SJTU", "UFC", "UMC"]


def read_lines(path: Path) -> list:
    """One string per line, as Python text mode reads it; only the line end is stripped."""
    with open(path, encoding="utf-8") as f:
        return [line[:-1] if line.endswith("\n") else line for line in f]


def fmt(x: float, digits: int = 6) -> str:
    """A score as the CLI prints it: x100, half-up from the shortest repr."""
    return str(Decimal(str(x * 100)).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def fmt_plain(x: float, digits: int = 6) -> str:
    """alpha/beta header values: not scaled."""
    return str(Decimal(str(x)).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def pytest_configure(config):
    """A GreenWarning no test expects is an error: the input guards must stay quiet on
    ordinary data (tests that expect one catch it with pytest.warns)."""
    config.addinivalue_line("filterwarnings", "error::green_gec.GreenWarning")


@pytest.fixture(scope="session")
def shared() -> Path:
    value = os.environ.get("GREEN_SHARED")
    path = REPO / value if value else REPO.parent / "shared"
    if not (path / "data" / "conll14" / "source.txt").is_file():
        told = f"GREEN_SHARED={value} is {path}" if value else f"GREEN_SHARED is not set and {path} is missing"
        pytest.fail(f"{told}, which has no data/conll14/source.txt; set GREEN_SHARED to the shared data directory")
    return path


def build_release() -> None:
    """`cargo build --release` of the binary and the regex plugin, once per session (a no-op
    when they are up to date), when cargo is here and no prebuilt binary was named."""
    if os.environ.get("GREEN_BIN") or shutil.which("cargo") is None or getattr(build_release, "done", False):
        return
    subprocess.run(["cargo", "build", "--release", "--locked", "-p", "green-cli", "-p", "green-plugin-regex"],
                   cwd=REPO, check=True)
    build_release.done = True


@pytest.fixture(scope="session")
def conll14(shared: Path) -> dict:
    """CoNLL-14: source, the two references and the 13 systems, as lists of lines."""
    d = shared / "data" / "conll14"
    return {
        "dir": d,
        "source": read_lines(d / "source.txt"),
        "refs": [read_lines(d / "ref0.txt"), read_lines(d / "ref1.txt")],
        "systems": {name: read_lines(d / "systems" / f"{name}.txt") for name in SYSTEMS},
    }


@pytest.fixture(scope="session")
def green_bin() -> Path:
    build_release()
    value = os.environ.get("GREEN_BIN")
    path = Path(value) if value else REPO / "target" / "release" / "green"
    if not path.is_file():
        pytest.fail(f"green binary not found at {path}: run `cargo build --release -p green-cli` or set GREEN_BIN")
    return path
