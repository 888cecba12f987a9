#!/usr/bin/env python3
"""Open a `green report` page in headless Chromium and check it as a reader would see it.

Drives Debian's `chromium` over the DevTools protocol on a pipe (`--remote-debugging-pipe`):
no network, no Python packages, no browser download. It loads the page from a file:// URL,
waits for the page's script to mark <body data-ready="1"> (a watchdog, not a benchmark:
--timeout is generous) and then

- reads every number the page shows from the model (elements with `data-json`, the path of
  the value in the report's JSON, and `data-fmt`), the static tables and the totals the
  browser's script counts from the sentence data alike, and compares each with the JSON
  given by --json (the output of `green report --format json`), formatted the way the page
  formats it;
- checks that the JSON embedded in the page is that same JSON;
- checks that the page asked for nothing but itself (no network, no other file);
- exercises the sentence browser: a link to a sentence by its number (URL fragment), the
  type filter, the "systems disagree" filter, search;
- with --screenshot, saves a PNG of the element given by --shot-selector.

It prints the load time the page measured (navigation start to the first page of sentences
drawn) and exits non-zero on any mismatch.
"""

import argparse
import base64
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time
from decimal import ROUND_HALF_UP, Decimal


class Browser:
    """Chromium with the DevTools protocol on fds 3 (commands) and 4 (replies)."""

    def __init__(self, chromium, width, height):
        self.profile = tempfile.TemporaryDirectory()
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()

        def fds():
            # Copies first: a pipe end may itself be fd 3 or 4. dup2 makes 3 and 4 inheritable.
            a, b = os.dup(to_chrome_r), os.dup(from_chrome_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [
                chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-extensions", "--remote-debugging-pipe",
                "--host-resolver-rules=MAP * ~NOTFOUND",
                f"--user-data-dir={self.profile.name}", f"--window-size={width},{height}",
                "about:blank",
            ],
            preexec_fn=fds,
            close_fds=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        targets = self.call("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self.session = self.call("Target.attachToTarget", targetId=page["targetId"], flatten=True)["sessionId"]
        self.call("Page.enable", session=True)
        self.call("Runtime.enable", session=True)
        self.call("Network.enable", session=True)

    def requests(self):
        """Every URL the page asked for so far."""
        return [e["params"]["request"]["url"] for e in self.events
                if e.get("method") == "Network.requestWillBeSent"]

    def read_message(self, deadline):
        while b"\0" not in self.buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("no reply from chromium")
            chunk = os.read(self.from_chrome, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, session=False, timeout=120, **params):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        os.write(self.to_chrome, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self.read_message(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def evaluate(self, expression, timeout=120):
        result = self.call("Runtime.evaluate", session=True, timeout=timeout, expression=expression,
                           returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"page script failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    def close(self):
        try:
            self.call("Browser.close", timeout=10)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.profile.cleanup()


def percent(x):
    """green's numbers: ×100, two digits, rounded half up from the shortest repr."""
    if x is None:
        return "–"
    return str(Decimal(repr(x * 100)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def shown(value, fmt):
    if fmt == "int":
        return str(value)
    if fmt == "pct":
        return percent(value)
    if fmt == "ci":
        return f"[{percent(value[0])}, {percent(value[1])}]"
    if fmt == "delta":
        return ("+" if value is not None and value >= 0 else "") + percent(value)
    if fmt == "p":
        return f"{value:.3f}"
    raise ValueError(f"unknown data-fmt {fmt}")


def lookup(data, path):
    for key in path.split("."):
        data = data[int(key)] if isinstance(data, list) else data[key]
    return data


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("html", help="the report page")
    ap.add_argument("--json", help="the same report from --format json: every number shown is checked against it")
    ap.add_argument("--chromium", default="chromium")
    ap.add_argument("--timeout", type=float, default=60, help="seconds the page may take to be ready (a watchdog)")
    ap.add_argument("--screenshot", help="write a PNG here")
    ap.add_argument("--shot-selector", default="body", help="the element to photograph")
    ap.add_argument("--shot-fragment", default="", help="URL fragment to open before the screenshot (e.g. #s9)")
    ap.add_argument("--shot-height", type=float, default=0, help="cut the screenshot at this height (CSS pixels)")
    ap.add_argument("--shot-hide", default="", help="elements to hide for the screenshot (a CSS selector)")
    ap.add_argument("--shot-click", default="", help="elements to click before the screenshot (a CSS selector)")
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=900)
    ap.add_argument("--interact", action="store_true", help="also exercise the sentence browser's filters")
    args = ap.parse_args()

    url = pathlib.Path(args.html).resolve().as_uri()
    browser = Browser(args.chromium, args.width, args.height)
    failures = []
    try:
        started = time.monotonic()
        browser.call("Page.navigate", session=True, url=url)
        deadline = started + args.timeout
        ready = None
        while time.monotonic() < deadline:
            ready = browser.evaluate("document.body && document.body.getAttribute('data-ready')")
            if ready == "1":
                break
            time.sleep(0.1)
        waited = time.monotonic() - started
        if ready != "1":
            print(f"report-browser: {args.html} was not ready within {args.timeout:.0f} s", file=sys.stderr)
            return 1
        load_ms = browser.evaluate("document.body.getAttribute('data-load-ms')")
        size = os.path.getsize(args.html)
        print(f"report-browser: {args.html}: {size / 1e6:.1f} MB, ready in {int(load_ms) / 1000:.2f} s "
              f"as the page measured it ({waited:.2f} s until this script saw it)")
        count = browser.evaluate("document.querySelectorAll('#list .sentence').length")
        sentences = browser.evaluate("JSON.parse(document.getElementById('green-data').textContent).corpus.sentences")
        page = browser.evaluate("+document.getElementById('size').value")
        if count != min(page, sentences):
            failures.append(f"the first page shows {count} sentences, expected {min(page, sentences)}")

        if args.json:
            data = json.loads(pathlib.Path(args.json).read_text(encoding="utf-8"))
            embedded = browser.evaluate("JSON.parse(document.getElementById('green-data').textContent)")
            if embedded != data:
                failures.append("the JSON embedded in the page differs from --json")
            cells = browser.evaluate(
                "Array.from(document.querySelectorAll('[data-json]')).map(e => [e.dataset.json, e.dataset.fmt, e.textContent])")
            for path, fmt, text in cells:
                want = shown(lookup(data, path), fmt)
                if text != want:
                    failures.append(f"{path}: the page shows {text!r}, the JSON says {want!r}")
            from_script = sum(1 for c in cells if c[0].startswith("outcomes.")) // 2
            print(f"report-browser: {len(cells)} numbers on the page equal the JSON "
                  f"({from_script} of them counted by the page's script from the sentence data)")

        if args.interact:
            failures += interact(browser, sentences)

        if args.screenshot:
            if args.shot_hide:
                browser.evaluate(f"document.querySelectorAll({json.dumps(args.shot_hide)}).forEach(e => e.hidden = true)")
            if args.shot_click:
                browser.evaluate(f"document.querySelectorAll({json.dumps(args.shot_click)}).forEach(e => e.click())")
            if args.shot_fragment:
                browser.evaluate(f"location.hash = {json.dumps(args.shot_fragment)}")
                time.sleep(0.3)
            box = browser.evaluate(
                f"(() => {{ const r = document.querySelector({json.dumps(args.shot_selector)}).getBoundingClientRect();"
                " return [r.left + scrollX, r.top + scrollY, r.width, r.height]; })()")
            shot = browser.call("Page.captureScreenshot", session=True, format="png", captureBeyondViewport=True,
                                clip={"x": box[0], "y": box[1], "width": box[2],
                                      "height": min(box[3], args.shot_height or box[3]), "scale": 1})
            pathlib.Path(args.screenshot).write_bytes(base64.b64decode(shot["data"]))
            print(f"report-browser: screenshot of {args.shot_selector} written to {args.screenshot}")
        outside = [u for u in browser.requests() if u != url and not u.startswith(("data:", "about:"))]
        if outside:
            failures.append(f"the page asked for {len(outside)} other resource(s), e.g. {outside[0]}")
    finally:
        browser.close()
    for f in failures[:20]:
        print(f"report-browser: {f}", file=sys.stderr)
    if failures:
        print(f"report-browser: {len(failures)} check(s) failed", file=sys.stderr)
        return 1
    return 0


def interact(browser, sentences):
    """The browser's controls, as a reader uses them."""
    failures = []
    target = min(sentences, 42)
    browser.evaluate(f"location.hash = '#s{target}'")
    time.sleep(0.3)
    if not browser.evaluate(f"!!document.querySelector('#s{target}.target')"):
        failures.append(f"#s{target} did not show sentence {target}")
    status = lambda: browser.evaluate("document.getElementById('status').textContent")
    browser.evaluate("""(() => { const t = document.getElementById('type');
        t.value = t.options[1].value; t.dispatchEvent(new Event('change')); })()""")
    typed = status()
    if not typed.endswith(")") and " of " not in typed:
        failures.append(f"the type filter left the status {typed!r}")
    browser.evaluate("""(() => { const t = document.getElementById('type'); t.value = '';
        t.dispatchEvent(new Event('change'));
        const d = document.getElementById('disagree'); d.checked = true; d.dispatchEvent(new Event('change')); })()""")
    shown_count = browser.evaluate("document.querySelectorAll('#list .sentence').length")
    disagree = int(status().split(" of ")[0])
    if disagree > 0 and shown_count == 0:
        failures.append("the 'systems disagree' filter matched sentences but drew none")
    word = browser.evaluate("JSON.parse(document.getElementById('green-data').textContent).sentences.source[0].split(' ')[0]")
    browser.evaluate(f"""(() => {{ const d = document.getElementById('disagree'); d.checked = false;
        d.dispatchEvent(new Event('change'));
        const q = document.getElementById('q'); q.value = {json.dumps(word)}; q.dispatchEvent(new Event('input')); }})()""")
    time.sleep(0.6)
    found = status()
    if found.startswith("0 of"):
        failures.append(f"searching for {word!r}, a word of the first source, found nothing")
    print(f"report-browser: browsed: #s{target} shown; type filter: {typed}; systems disagree: {disagree}; "
          f"search {word!r}: {found}")
    return failures


if __name__ == "__main__":
    sys.exit(main())
