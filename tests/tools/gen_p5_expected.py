"""Fill tests/data/p5_cases.json with golden values computed by the real p5.js.

Each case's ``code`` runs in headless Chromium, in a fresh page where p5.js 1.11.13
runs in global mode and ``setup()`` has called ``createCanvas(100, 100)``; the JSON of
the snippet's completion value becomes the case's ``expected`` (a thrown error is
stored as the string ``"THROW:<ErrorName>"``). tests/test_p5_semantics.py then
compares the QuickJS shim against these values.

Usage:
    python3 tests/tools/gen_p5_expected.py --p5 path/to/p5.min.js [--chromium /usr/bin/chromium]
    python3 tests/tools/gen_p5_expected.py --p5 path/to/p5.min.js --missing   # new cases only

p5.js comes from the npm package (``npm pack p5@1.11.13``, file ``package/lib/p5.min.js``
or ``p5.js``); it is inlined into the page, so no server and no network are used.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "data" / "p5_cases.json"
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

RUN_CASE_JS = """(code) => {
  try {
    const value = (0, eval)(code);
    return value === undefined ? '__undefined__' : JSON.stringify(value);
  } catch (e) {
    return JSON.stringify('THROW:' + (e && e.constructor ? e.constructor.name : typeof e));
  }
}"""


def page_html(p5_source: str) -> str:
    # the p5 source is inlined; "</script" cannot occur inside it unescaped
    safe = p5_source.replace("</script", "<\\/script")
    return (
        "<!doctype html><html><head><meta charset='utf-8'></head><body>"
        f"<script>{safe}</script>"
        "<script>function setup() { createCanvas(100, 100); window.__jsgym_ready = true; }</script>"
        "</body></html>"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--p5", required=True, type=pathlib.Path, help="p5.js or p5.min.js of p5 1.11.13")
    ap.add_argument("--chromium", default="/usr/bin/chromium", help="Chromium executable")
    ap.add_argument("--cases", default=CASES, type=pathlib.Path, help="cases file to fill in place")
    ap.add_argument("--missing", action="store_true",
                    help="only the cases without a golden value yet (a page per case: all take minutes)")
    args = ap.parse_args(argv)

    from playwright.sync_api import sync_playwright  # imported here: only this tool needs it

    data = json.loads(args.cases.read_text())
    html = page_html(args.p5.read_text())
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
        version = None
        todo = [c for c in data["cases"]
                if not args.missing or ("expected" not in c and not c.get("expected_undefined"))]
        for case in todo:
            # a new page per case: set_content() on one page would keep the same
            # window (and p5's state: colorMode, angleMode, seeds) between cases
            page = browser.new_page()
            page.set_content(html)
            page.wait_for_function("window.__jsgym_ready === true", timeout=10000)
            if version is None:
                version = page.evaluate("p5.prototype.VERSION || VERSION")
                if version != data.get("p5_version"):
                    print(f"p5 version {version} != cases file {data.get('p5_version')}", file=sys.stderr)
                    return 1
            raw = page.evaluate(RUN_CASE_JS, case["code"])
            if raw == "__undefined__":
                case.pop("expected", None)
                case["expected_undefined"] = True
            else:
                case["expected"] = json.loads(raw)
            page.close()
        browser.close()
    args.cases.write_text(json.dumps(data, indent=1) + "\n")
    print(f"filled {len(todo)} cases from p5 {version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
