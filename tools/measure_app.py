"""Measure the explorer in a real browser: a live decode end to end, and one step of replay.

python -m tools.measure_app [--model PATH] [--max-new-tokens N] [--prompt TEXT] [--steps 10]

Launches the app on loopback, drives Debian's chromium with Playwright, prints JSON with the
seconds from clicking Run to the finished badge, and the median milliseconds from clicking
"step" to every view showing the new step (over --steps steps, or all the trace has).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from wedlm.config import DEFAULTS

GENERATED = "/(\\d+) tokens \\//.exec(document.querySelector('#badge').innerText)"
GENERATED_AT_MOST_4 = f"() => {{ const m = {GENERATED}; return m && +m[1] <= 4; }}"
GENERATED_MORE_THAN_4 = f"() => {{ const m = {GENERATED}; return m && +m[1] > 4; }}"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]


def main() -> int:
    from playwright.sync_api import sync_playwright
    from app.ui import build_ui, launch

    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default=None)
    parser.add_argument("--prompt", default="Count from 1 to 40:")
    parser.add_argument("--max-new-tokens", type=int, default=DEFAULTS["max_new_tokens"])
    parser.add_argument("--steps", type=int, default=10)
    args = parser.parse_args()
    demo = build_ui(args.model)
    launch(demo, prevent_thread_lock=True, server_name="127.0.0.1", quiet=True)
    out = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 2400})
        page.goto(demo.local_url, wait_until="domcontentloaded")
        page.wait_for_selector("#prompt textarea", timeout=60_000)
        page.fill("#prompt textarea", args.prompt)

        def set_max(n):
            page.fill("#max-new input[type=number]", str(n))
            page.press("#max-new input[type=number]", "Enter")

        # warm-up decode of 4 tokens: loads the model once, as a running Space would have
        page.wait_for_timeout(2000)  # let the example trace of the first view arrive
        set_max(4)
        page.click("#run")
        page.wait_for_function(GENERATED_AT_MOST_4, timeout=120_000)
        set_max(args.max_new_tokens)
        t0 = time.perf_counter()
        page.click("#run")
        page.wait_for_function(GENERATED_MORE_THAN_4, timeout=120_000)
        out["live_decode_s"] = round(time.perf_counter() - t0, 2)
        out["badge"] = page.inner_text("#badge")
        page.click("#first")
        page.wait_for_function("() => document.querySelector('#badge').innerText.includes('(forward 1 of')")
        # a confident model may finish in fewer forwards than --steps: step through what there is
        forwards = int(page.inner_text("#badge").split("(forward 1 of ")[1].split(")")[0].split()[0])
        out["forwards"] = forwards
        times = []
        for k in range(2, min(args.steps + 2, forwards + 1)):
            t0 = time.perf_counter()
            page.click("#next")
            page.wait_for_function(
                f"() => document.querySelector('#badge').innerText.includes('(forward {k} of') && "
                f"document.querySelector('#step-table tr.current td').innerText === '{k - 1}'")
            times.append((time.perf_counter() - t0) * 1000)
        out["step_ms_median"] = round(statistics.median(times), 1)
        out["step_ms_max"] = round(max(times), 1)
        browser.close()
    demo.close()
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
