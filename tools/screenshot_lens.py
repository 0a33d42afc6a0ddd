"""Screenshot the entropy lens (a counting list beside a verse) for the README, or at other sizes.

python -m tools.screenshot_lens [--out docs/screenshots/lens.png] [--size 1440x900[,390x844...]] [--full-page]

Launches the app on the bundled model on loopback, shows the lens of the two example texts in
Debian's chromium (Playwright) and saves the lens part of the page (or the whole page); with
several sizes, one file per size (lens-1440x900.png ...).
"""
from __future__ import annotations

import argparse
import sys

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]
CHROMIUM = "/usr/bin/chromium"


def main(argv=None) -> int:
    from playwright.sync_api import sync_playwright

    from app.ui import build_ui, launch
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/screenshots/lens.png")
    parser.add_argument("--size", default="1440x900", help="viewport WIDTHxHEIGHT, or several, comma separated")
    parser.add_argument("--full-page", action="store_true", help="the whole Entropy explorer tab")
    parser.add_argument("--port", type=int, default=None)
    args = parser.parse_args(argv)
    sizes = [tuple(int(v) for v in size.split("x")) for size in args.size.split(",")]
    demo = build_ui()
    launch(demo, prevent_thread_lock=True, server_name="127.0.0.1", server_port=args.port, quiet=True)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            for width, height in sizes:
                out = args.out if len(sizes) == 1 else args.out.replace(".png", f"-{width}x{height}.png")
                page = browser.new_page(viewport={"width": width, "height": height})
                page.goto(demo.local_url, wait_until="domcontentloaded")
                page.get_by_role("tab", name="Entropy explorer").click(timeout=180_000)
                page.click("#lens-run")
                page.wait_for_selector("#lens-a .lens", timeout=600_000)
                page.wait_for_selector("#lens-b .lens", timeout=600_000)
                if args.full_page:
                    page.screenshot(path=out, full_page=True)
                else:
                    page.locator("#lens-section").screenshot(path=out)
                page.close()
                print(out)
            browser.close()
    finally:
        demo.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
