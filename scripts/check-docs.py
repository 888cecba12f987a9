#!/usr/bin/env python3
"""Run every example of README.md and docs/*.md and compare what it prints.

Fenced blocks are read by their info string (the first word after the fence):

``console``
    Shell sessions. A line starting with ``$ `` is a command (a line ending in ``\\``
    continues it on the next line); the lines after it, up to the next ``$ `` line or the
    end of the block, are its expected standard output, compared exactly. In the expected
    output a line ``...`` stands for any number of lines (none included) and ``[..]``
    inside a line for any text on that line, as in trycmd. A line ``? N`` right after the
    command says the command exits with status N (default 0). Standard error is not
    compared (write ``2>&1`` to compare it). Each command runs with ``bash -c`` from the
    repository root with ``target/release`` first on ``PATH`` (so ``green ...`` is the
    release build) and ``TMPDIR`` set to a fresh directory shared by the whole run and
    removed at its end (examples that write files write them under ``$TMPDIR``).

``pycon``
    Python sessions (``>>>`` prompts), checked with ``doctest`` (``ELLIPSIS`` on), run only
    with ``--python PYTHON``: an interpreter that can ``import green_gec`` (CI step 50 passes
    the one of the virtual environment it installs the package into). The blocks of one page
    run in order in one interpreter, from the repository root, sharing their names.

Anything else (``sh``, ``text``, ``python``, ``rust``, ...) is shown, never run: use those for
commands that install things, need a network or are only a shape (``green -s SRC ...``).

``console:FEATURE``
    A console block for a build with the cargo feature FEATURE of green-cli (``neural``): run
    only with ``--features FEATURE`` (by the CI step that builds with it), skipped otherwise.

Relative links between the pages (``[x](scoring.md#levels)``) must name files that exist.

Exit status 0 when everything matches; 1 with every mismatch listed (file:line, command,
diff); 2 on a usage error. ``--list`` prints the commands without running them, ``-k TEXT``
runs only the commands containing TEXT, ``-v`` prints each command's time.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([^`\s]*)")
LINK = re.compile(r"\]\(([^)\s]+)\)")


@dataclass
class Command:
    path: Path
    line: int  # 1-based line of the `$ ` line
    command: str
    status: int = 0
    expected: list[str] = field(default_factory=list)


@dataclass
class Block:
    path: Path
    line: int  # 1-based line of the first line inside the fence
    info: str
    lines: list[str]


def blocks(path: Path) -> list[Block]:
    """Every fenced block of a Markdown file, with its info word and its lines."""
    out: list[Block] = []
    text = path.read_text(encoding="utf-8").split("\n")
    i = 0
    while i < len(text):
        m = FENCE.match(text[i])
        if not m:
            i += 1
            continue
        indent, fence, info = m.group(1), m.group(2), m.group(3)
        body: list[str] = []
        j = i + 1
        while j < len(text):
            close = text[j].strip()
            if close.startswith(fence[0] * len(fence)) and close.strip(fence[0]) == "":
                break
            line = text[j]
            body.append(line[len(indent):] if line.startswith(indent) else line.lstrip())
            j += 1
        if j == len(text):
            raise SystemExit(f"{rel(path)}:{i + 1}: code fence never closed")
        out.append(Block(path, i + 2, info, body))
        i = j + 1
    return out


def commands(block: Block) -> list[Command]:
    """The commands of a console block with their expected output."""
    cmds: list[Command] = []
    lines = block.lines
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("$ ") or line == "$":
            start = block.line + i
            cmd = line[2:]
            while cmd.endswith("\\") and i + 1 < len(lines):
                i += 1
                cmd = cmd[:-1] + "\n" + lines[i]
            current = Command(block.path, start, cmd)
            if i + 1 < len(lines) and re.fullmatch(r"\? \d+", lines[i + 1]):
                i += 1
                current.status = int(lines[i][2:])
            cmds.append(current)
        elif not cmds:
            raise SystemExit(
                f"{rel(block.path)}:{block.line + i}: a console block must start with a `$ ` command line "
                "(use ```sh or ```text for a block that is not run)"
            )
        else:
            cmds[-1].expected.append(line)
        i += 1
    if not cmds:
        raise SystemExit(f"{rel(block.path)}:{block.line}: console block without commands")
    return cmds


def rel(path: Path) -> str:
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


def trim(lines: list[str]) -> list[str]:
    lines = list(lines)
    while lines and lines[-1].strip() == "":
        lines.pop()
    return lines


def line_pattern(expected: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in expected.split("[..]")), re.DOTALL)


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether the actual lines fit the expected ones (`...` lines, `[..]` inside lines)."""
    patterns = [None if e == "..." else line_pattern(e) for e in expected]
    memo: dict[tuple[int, int], bool] = {}

    def go(i: int, j: int) -> bool:
        key = (i, j)
        if key in memo:
            return memo[key]
        if i == len(patterns):
            result = j == len(actual)
        elif patterns[i] is None:
            result = any(go(i + 1, k) for k in range(j, len(actual) + 1))
        else:
            result = j < len(actual) and patterns[i].fullmatch(actual[j]) is not None and go(i + 1, j + 1)
        memo[key] = result
        return result

    return go(0, 0)


def check_links(path: Path) -> list[str]:
    errors = []
    in_fence = False
    for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        for target in LINK.findall(line):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            file = target.split("#", 1)[0]
            if file and not (path.parent / file).exists():
                errors.append(f"{rel(path)}:{n}: link to {target}: {file} does not exist")
    return errors


PYCON_RUNNER = r"""
import doctest, io, json, sys
pages = json.load(sys.stdin)
failures = []
examples = 0
for page in pages:
    globs = {"__name__": "__docs__"}
    for block in page["blocks"]:
        parser = doctest.DocTestParser()
        test = parser.get_doctest(block["text"], globs, page["file"], page["file"], block["line"] - 1)
        out = io.StringIO()
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS, verbose=False)
        runner.run(test, out=out.write, clear_globs=False)
        examples += len(test.examples)
        if runner.failures:
            failures.append(out.getvalue())
        globs = test.globs
print(json.dumps({"examples": examples, "failures": failures}))
"""


def run_pycon(python: str, pages: dict[Path, list[Block]], env: dict[str, str]) -> tuple[int, list[str]]:
    payload = [
        {"file": rel(path), "blocks": [{"line": b.line, "text": "\n".join(b.lines) + "\n"} for b in bs]}
        for path, bs in pages.items()
        if bs
    ]
    if not payload:
        return 0, []
    proc = subprocess.run(
        [python, "-c", PYCON_RUNNER],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
    )
    if proc.returncode != 0:
        return 0, [f"python blocks: {python} exited with {proc.returncode}:\n{proc.stderr}"]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    return result["examples"], result["failures"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", type=Path, help="Markdown files (default: README.md and docs/*.md)")
    ap.add_argument("--python", help="interpreter that imports green_gec: also run the pycon blocks")
    ap.add_argument("--only", choices=["console", "pycon"], help="run only this kind of block")
    ap.add_argument("--bin", type=Path, default=ROOT / "target" / "release", help="put this directory first on PATH")
    ap.add_argument("-k", metavar="TEXT", help="run only the console commands containing TEXT")
    ap.add_argument("--list", action="store_true", help="print the console commands, run nothing")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every command with its time")
    ap.add_argument("--features", default="", help="comma-separated green-cli features of the build: also run their console:FEATURE blocks")
    args = ap.parse_args()
    features = {f for f in args.features.split(",") if f}

    files = [f.resolve() for f in args.files] or [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    errors: list[str] = []
    cmds: list[Command] = []
    pycon: dict[Path, list[Block]] = {}
    gated = 0
    for path in files:
        errors += check_links(path)
        pycon[path] = []
        for block in blocks(path):
            if block.info == "console":
                cmds += commands(block)
            elif block.info.startswith("console:"):
                if block.info.split(":", 1)[1] in features:
                    cmds += commands(block)
                else:
                    gated += 1
            elif block.info == "pycon":
                pycon[path].append(block)
    if args.k:
        cmds = [c for c in cmds if args.k in c.command]
    if args.list:
        for c in cmds:
            print(f"{rel(c.path)}:{c.line}: {c.command}")
        return 0

    binary = args.bin.resolve()
    if args.only != "pycon" and not (binary / "green").exists():
        print(f"check-docs: {binary}/green not found; build it first: cargo build --release --locked -p green-cli", file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp(prefix="green-docs-")
    env = dict(os.environ)
    env["PATH"] = f"{binary}{os.pathsep}{env.get('PATH', '')}"
    env["TMPDIR"] = tmp
    env.setdefault("LC_ALL", "C.UTF-8")
    env["NO_COLOR"] = "1"
    start = time.monotonic()
    ran = 0
    timings: list[tuple[float, Command]] = []
    try:
        if args.only != "pycon":
            for c in cmds:
                t0 = time.monotonic()
                proc = subprocess.run(["bash", "-c", c.command], cwd=ROOT, env=env, capture_output=True)
                took = time.monotonic() - t0
                timings.append((took, c))
                ran += 1
                if args.verbose:
                    print(f"{took:7.2f} s  {rel(c.path)}:{c.line}: {c.command}", file=sys.stderr)
                actual = trim(proc.stdout.decode("utf-8", errors="replace").split("\n"))
                expected = trim(c.expected)
                ok_status = proc.returncode == c.status
                if ok_status and matches(expected, actual):
                    continue
                msg = [f"{rel(c.path)}:{c.line}: $ {c.command}"]
                if not ok_status:
                    msg.append(f"  exit status {proc.returncode}, expected {c.status}")
                if not matches(expected, actual):
                    diff = difflib.unified_diff(expected, actual, "expected", "actual", lineterm="", n=2)
                    msg += ["  " + d for d in diff]
                stderr = proc.stderr.decode("utf-8", errors="replace").strip()
                if stderr:
                    msg.append("  stderr: " + stderr[-2000:].replace("\n", "\n          "))
                errors.append("\n".join(msg))
        examples = 0
        if args.only != "console" and args.python:
            examples, failures = run_pycon(args.python, pycon, env)
            errors += failures
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    total = time.monotonic() - start
    skipped = sum(len(b) for b in pycon.values()) if not args.python and args.only != "console" else 0
    summary = f"check-docs: {ran} commands"
    if args.python:
        summary += f", {examples} python examples"
    elif skipped:
        summary += f" ({skipped} pycon blocks skipped: no --python)"
    if gated:
        summary += f" ({gated} console blocks of features not built skipped)"
    summary += f" in {total:.1f} s"
    if args.verbose and timings:
        slow = sorted(timings, key=lambda t: -t[0])[:5]
        print("slowest: " + "; ".join(f"{rel(c.path)}:{c.line} {t:.1f} s" for t, c in slow), file=sys.stderr)
    if errors:
        print("\n\n".join(errors), file=sys.stderr)
        print(f"{summary}: {len(errors)} problems (listed above)", file=sys.stderr)
        return 1
    print(f"{summary}: all match")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # `--list | head`
        sys.exit(0)
