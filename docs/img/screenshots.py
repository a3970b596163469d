"""Screenshots of HTML views for docs/img, as a reader sees them at the opening zoom.

    python docs/img/screenshots.py OUT.png PAGE.html [--width 1400 --height 860] [--js EXPR]

Opens PAGE in headless Chromium (Debian's /usr/bin/chromium, driven by Playwright), waits until the
map is drawn, optionally runs EXPR in the page (e.g. to switch a control), and saves a PNG, reduced
to a 256-colour palette when that is needed to keep it under `LIMIT` bytes for the repository.
"""
from __future__ import annotations

import argparse
import io
from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
LIMIT = 290_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("page", type=Path)
    parser.add_argument("--width", type=int, default=1400)
    parser.add_argument("--height", type=int, default=860)
    parser.add_argument("--js", help="JavaScript run in the page before the screenshot")
    args = parser.parse_args()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": args.width, "height": args.height})
        page.goto(args.page.resolve().as_uri())
        page.wait_for_function("window.kgReady !== undefined", timeout=60_000)
        if args.js:
            page.evaluate(args.js)
        page.wait_for_timeout(300)
        shot = page.screenshot()
        browser.close()
    image = Image.open(io.BytesIO(shot)).convert("RGB")
    image.save(args.out, optimize=True)
    if args.out.stat().st_size > LIMIT:
        image.quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(args.out, optimize=True)
    print(f"{args.out}: {args.out.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
