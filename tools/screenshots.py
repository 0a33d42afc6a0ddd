"""Make the README's screenshots and the room-size screenshots into docs/screenshots/.

python -m tools.screenshots [--chapter 3] [--present-chapter 5] [--tour-only | --decode-only]

Launches the explorer on the bundled model (loopback, a free port), drives headless Chromium
(Debian's /usr/bin/chromium) through Playwright, and writes what a visitor sees on the first
screen at 1440×900 (laptop), 1024×768 (projector) and 390×844 (phone):
tour-chapter-N-<size>.png, decode-step-<size>.png, decode-charts-<size>.png (the charts and
attention grids below), race-<size>.png; and the tour presenting on a 1920×1080 projector
(tour-presenting-1920.png), saved as 256-colour PNGs.
"""
from __future__ import annotations

import argparse
import io
import os
import sys
from pathlib import Path

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")

from wedlm.paths import REPO_ROOT  # noqa: E402

OUT = REPO_ROOT / "docs" / "screenshots"
SIZES = {"1440": (1440, 900), "1024": (1024, 768), "390": (390, 844)}
PROJECTOR = (1920, 1080)
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
RACE_PROMPT = "Count from 1 to 30:"


def save(png: bytes, path: Path) -> None:
    """A 256-colour PNG: the views are flat colours, so this keeps them sharp and small."""
    from PIL import Image
    image = Image.open(io.BytesIO(png)).convert("RGB").quantize(256, method=Image.Quantize.MEDIANCUT)
    image.save(path, optimize=True)
    print(f"{path.relative_to(REPO_ROOT)}: {path.stat().st_size // 1024} KB")


def decode_step(page) -> None:
    """The Decode tab on the first recorded step whose window has a filled slot behind a mask."""
    from app.tabs.tour import moments
    from app.serving.context import TRACE_DIR
    from wedlm import Trace
    page.get_by_role("tab", name="Decode").click()
    page.wait_for_selector("#stepper .wedlm-stepper[data-step]", timeout=60_000)
    name = page.input_value("#examples input")
    trace = Trace.load(TRACE_DIR / name) if (TRACE_DIR / name).is_file() else None
    step = moments.reorder_step(trace) if trace else None
    if step is None:
        return
    page.wait_for_function("() => window.wedlmStepper && window.wedlmStepper.ready('decode')", timeout=60_000)
    page.evaluate("k => window.wedlmStepper.show('decode', k)", step)  # stepping runs in the page
    page.wait_for_function("s => document.querySelector('#badge').innerText.includes('step ' + s + ' ')",
                           arg=step, timeout=30_000)


def presenting(page, url: str, chapter: int) -> None:
    """The tour presenting (?present=1) on a projector, at `chapter`."""
    page.goto(f"{url}/?present=1&chapter={chapter}", wait_until="domcontentloaded")
    page.wait_for_selector(f"#tour-viz-{chapter}", state="visible", timeout=300_000)
    page.wait_for_function("() => document.body.classList.contains('tour-present')")
    page.wait_for_timeout(2000)  # the stepper unpacks, plots draw, the chapter is fitted
    page.evaluate("() => window.wedlmPresent.fit()")
    page.wait_for_timeout(500)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chapter", type=int, default=3, help="the tour chapter to show (default 3)")
    parser.add_argument("--present-chapter", type=int, default=5,
                        help="the chapter of the presenting shot (default 5)")
    parser.add_argument("--decode-only", action="store_true", help="only the Decode tab's shots")
    parser.add_argument("--tour-only", action="store_true", help="only the tour's shots (and presenting)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from app.ui import build_ui, launch
    OUT.mkdir(parents=True, exist_ok=True)
    demo = build_ui()
    launch(demo, prevent_thread_lock=True, server_name="127.0.0.1", quiet=True)
    url = demo.local_url.rstrip("/")
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            for label, (width, height) in SIZES.items():
                page = browser.new_page(viewport={"width": width, "height": height})
                page.goto(f"{url}/?chapter={args.chapter}", wait_until="domcontentloaded")
                page.wait_for_selector(f"#tour-viz-{args.chapter}", state="visible", timeout=300_000)
                page.wait_for_timeout(1500)  # plots finish drawing
                if not args.decode_only:
                    save(page.screenshot(), OUT / f"tour-chapter-{args.chapter}-{label}.png")
                if args.tour_only:
                    page.close()
                    continue
                decode_step(page)
                page.locator("#stepper").scroll_into_view_if_needed()  # the step's views, not the form
                page.evaluate("() => window.scrollBy(0, document.querySelector('#stepper').getBoundingClientRect().top - 8)")
                page.wait_for_timeout(1500)
                save(page.screenshot(), OUT / f"decode-step-{label}.png")
                page.locator("#mask-physical").scroll_into_view_if_needed()  # the grids and charts below
                page.evaluate("() => window.scrollBy(0, document.querySelector('#entropy-bars').getBoundingClientRect().top - 8)")
                page.wait_for_timeout(500)
                save(page.screenshot(), OUT / f"decode-charts-{label}.png")
                if args.decode_only:
                    page.close()
                    continue
                page.get_by_role("tab", name="Race").click()
                page.fill("#race-prompt textarea", RACE_PROMPT)
                page.click("#race-run")
                page.wait_for_function("() => [...document.querySelectorAll('#race-lanes .lane')]"
                                       ".every(l => l.innerText.includes('finished')) && "
                                       "document.querySelectorAll('#race-lanes .lane').length > 1",
                                       timeout=300_000)
                page.locator("#race-lanes").scroll_into_view_if_needed()
                page.wait_for_timeout(1500)
                save(page.screenshot(), OUT / f"race-{label}.png")
                page.close()
            if not args.decode_only:
                page = browser.new_page(viewport={"width": PROJECTOR[0], "height": PROJECTOR[1]})
                presenting(page, url, args.present_chapter)
                save(page.screenshot(), OUT / "tour-presenting-1920.png")
                page.close()
            browser.close()
    finally:
        demo.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
