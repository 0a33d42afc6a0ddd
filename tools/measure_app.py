"""Measure the explorer in a real browser and write the figures to docs/app-timings.md.

python -m tools.measure_app [--model PATH] [--max-new-tokens N] [--prompt TEXT] [--steps 20]
                            [--visitors 30] [--seconds 20] [--out docs/app-timings.md]

Starts the app (`python app.py`) in a process of its own on loopback, drives Debian's chromium
with Playwright (in this process) at 1440×900 and measures:
- live decode: seconds from clicking Run to the finished badge (after a warm-up decode);
- step click: milliseconds from a "step ▶" click to the next painted frame with every view of
  the new step shown (narration on, a position followed by the highlight), median and max over
  --steps clicks, timed inside the page (performance.now) and from Python (with Playwright's
  round trip);
- requests to the server during 20 step / scrub / play / key actions;
- the reordering animation's frames per second (requestAnimationFrame callbacks while it runs);
- server CPU with no page open for --seconds, then while --visitors pages each step once a second
  for --seconds: the CPU time (user + system, every thread) of the server's process over the
  wall time, read from /proc/<pid>/stat.
  The window opens once every page has loaded and stepped once (page loads and their load
  events are not in it). The Playwright client's own CPU (this process) is reported beside it,
  and the server's busiest threads.
Prints the figures as JSON and writes them, with the machine and the command, to --out.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from wedlm.config import DEFAULTS
from wedlm.paths import REPO_ROOT

GENERATED = "/(\\d+) tokens \\//.exec(document.querySelector('#badge').innerText)"
GENERATED_AT_MOST_4 = f"() => {{ const m = {GENERATED}; return m && +m[1] <= 4; }}"
GENERATED_MORE_THAN_4 = f"() => {{ const m = {GENERATED}; return m && +m[1] > 4; }}"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]
VIEWPORT = {"width": 1440, "height": 900}

# One "step ▶" click timed in the page: the click handler draws every view synchronously; the
# time runs until the frame after it is painted (a rAF, then a task after the paint).
TIMED_CLICK = """async () => {
  const before = window.wedlmStepper.current('decode');
  const t0 = performance.now();
  document.querySelector('#stepper button[data-act=next]').click();
  await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
  const ms = performance.now() - t0;
  const k = window.wedlmStepper.current('decode');
  const views = [...document.querySelectorAll('.wedlm-view[data-stepper="decode"]')];
  const agree = k === before + 1 && views.length >= 11 && views.every(v => v.dataset.step === String(k))
    && document.querySelector('#narration').innerText.includes('at step ' + k + ' ');
  return [ms, agree];
}"""
FPS = """async () => {
  let frames = 0, running = true;
  const count = () => { frames++; if (running) requestAnimationFrame(count); };
  const anims = window.wedlmStepper.animateReorder(document.querySelector('#orders .orders')) || [];
  if (!anims.length) return null;
  const t0 = performance.now();
  requestAnimationFrame(count);
  await Promise.all(anims.map(a => a.finished));
  running = false;
  return frames / ((performance.now() - t0) / 1000);
}"""


def open_decode_tab(page) -> None:
    """The Tour is the landing tab: open the Decode tab and wait for its trace's views."""
    page.get_by_role("tab", name="Decode").click(timeout=120_000)
    page.wait_for_selector("#prompt textarea", timeout=120_000)
    page.wait_for_function("() => window.wedlmStepper && window.wedlmStepper.ready('decode')", timeout=120_000)


def measure_live_decode(page, args) -> dict:
    page.fill("#prompt textarea", args.prompt)

    def set_max(n):
        page.fill("#max-new input[type=number]", str(n))
        page.press("#max-new input[type=number]", "Enter")

    set_max(4)  # warm-up decode of 4 tokens: loads the model once, as a running Space would have
    page.click("#run")
    page.wait_for_function(GENERATED_AT_MOST_4, timeout=120_000)
    set_max(args.max_new_tokens)
    t0 = time.perf_counter()
    page.click("#run")
    page.wait_for_function(GENERATED_MORE_THAN_4, timeout=120_000)
    out = {"live_decode_s": round(time.perf_counter() - t0, 2), "badge": page.inner_text("#badge").split("\n")[0]}
    page.wait_for_function("() => window.wedlmStepper.ready('decode') && "
                           "!document.querySelector('#stepper .wedlm-stepper[data-live]')", timeout=60_000)
    return out


def measure_steps(page, steps: int) -> dict:
    forwards = page.evaluate("() => +document.querySelector('#stepper input[type=range]').max + 1")
    page.evaluate("() => window.wedlmStepper.show('decode', 0)")
    followed = page.locator("#canvas .tok[data-pos]").first
    followed.click()  # highlighting on: a followed position is marked again at every step
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable")

    def thread_ms() -> float:  # CPU time of the page's main thread (other processes' load aside)
        return 1000 * next(m["value"] for m in cdp.send("Performance.getMetrics")["metrics"] if m["name"] == "ThreadTime")
    in_page, wall, cpu = [], [], []
    for k in range(min(steps, forwards - 1)):
        t0, c0 = time.perf_counter(), thread_ms()
        ms, agree = page.evaluate(TIMED_CLICK)
        cpu.append(thread_ms() - c0)
        wall.append((time.perf_counter() - t0) * 1000)
        if not agree:
            raise RuntimeError(f"step {k + 1}: the views do not all show it")
        in_page.append(ms)
    return {"forwards": forwards, "step_clicks": len(in_page),
            "step_ms_median": round(statistics.median(in_page), 1), "step_ms_max": round(max(in_page), 1),
            "step_ms_median_with_playwright": round(statistics.median(wall), 1),
            "step_main_thread_cpu_ms_median": round(statistics.median(cpu), 1),
            "highlight_on": page.locator(".hl").count() > 0}


def count_requests(page, origin: str) -> int:
    """Requests to the server during 20 actions: 8 clicks, 4 scrubs, 6 keys, play and pause."""
    requests = []
    page.on("request", lambda r: requests.append(r.url) if r.url.startswith(origin) else None)
    last = page.evaluate("() => +document.querySelector('#stepper input[type=range]').max")
    for act in ("first", "next", "next", "next", "prev", "last", "prev", "first"):
        page.click(f"#stepper button[data-act={act}]")
    for k in (1, last, 2, 0):
        page.eval_on_selector("#stepper input[type=range]",
                              "(r, k) => { r.value = String(k); r.dispatchEvent(new Event('input', {bubbles: true})); }", k)
    page.locator("#app-header").click()
    for key in ("ArrowRight", "ArrowRight", "ArrowLeft", "End", "Home", "ArrowRight"):
        page.keyboard.press(key)
    page.click("#stepper button[data-act=play]")
    page.wait_for_timeout(1600)
    page.click("#stepper button[data-act=play]")
    page.wait_for_timeout(500)
    return len(requests)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(model: str | None, log) -> tuple[subprocess.Popen, str]:
    """`python app.py` in its own process (offline), once it answers: (process, its URL)."""
    port = free_port()
    env = os.environ | {"GRADIO_ANALYTICS_ENABLED": "False", "HF_HUB_OFFLINE": "1", "HF_HUB_DISABLE_TELEMETRY": "1"}
    cmd = [sys.executable, str(REPO_ROOT / "app.py"), "--host", "127.0.0.1", "--port", str(port)]
    proc = subprocess.Popen(cmd + (["--model", model] if model else []), cwd=REPO_ROOT, env=env,
                            stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 900  # the models load and warm before it serves (slow under load)
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with urllib.request.urlopen(url, timeout=10) as reply:
                if reply.status == 200:
                    return proc, url
        except OSError:
            time.sleep(1)
    stop_server(proc)
    raise RuntimeError(f"the app did not answer at {url} (exit code {proc.returncode}); see {log.name}")


def stop_server(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _stat_cpu(stat: str) -> float:
    """user + system CPU seconds from a /proc/.../stat line (fields 14 and 15; the name in
    parentheses may hold spaces, so count from its closing parenthesis)."""
    fields = stat.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system, all threads) process `pid` has used so far."""
    return _stat_cpu(Path(f"/proc/{pid}/stat").read_text())


def thread_cpu_seconds(pid: int) -> dict[int, float]:
    """CPU seconds per thread id of process `pid` (threads that ended meanwhile are left out)."""
    out = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            out[int(task.name)] = _stat_cpu((task / "stat").read_text())
        except (FileNotFoundError, ProcessLookupError):
            pass
    return out


def measure_idle(server_pid: int, seconds: float) -> dict:
    """The server's CPU with no page open (the measures above closed theirs), over `seconds`."""
    cpu0, t0 = cpu_seconds(server_pid), time.perf_counter()
    time.sleep(seconds)
    return {"idle_seconds": round(time.perf_counter() - t0, 1),
            "idle_server_cpu_percent_of_one_core": round(100 * (cpu_seconds(server_pid) - cpu0) / (time.perf_counter() - t0), 2)}


def measure_visitors(browser, url: str, server_pid: int, visitors: int, seconds: float) -> dict:
    """`visitors` pages open the Decode tab, then each steps once a second; once every page has
    stepped once, the server's CPU is read over `seconds`."""
    pages, requests = [], []
    for _ in range(visitors):
        # a context each: like a visitor's own browser (Chromium keeps 6 connections per host
        # and profile, and every Gradio page holds one open)
        page = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
        page.goto(url, wait_until="domcontentloaded", timeout=300_000)
        open_decode_tab(page)
        pages.append(page)
    origin = url.rstrip("/")
    for page in pages:
        page.on("request", lambda r: requests.append(r.url) if r.url.startswith(origin) else None)
        page.evaluate("""() => { window.stepTimes = []; setInterval(() => {
            const last = +document.querySelector('#stepper input[type=range]').max;
            const k = window.wedlmStepper.current('decode');
            document.querySelector('#stepper button[data-act=' + (k >= last ? 'first' : 'next') + ']').click();
            window.stepTimes.push(Date.now()); }, 1000); }""")
    for page in pages:
        page.wait_for_function("() => window.stepTimes.length >= 1", timeout=60_000)
    requests.clear()
    threads0, cpu0, own0, t0 = thread_cpu_seconds(server_pid), cpu_seconds(server_pid), time.process_time(), time.perf_counter()
    start_ms = time.time() * 1000
    time.sleep(seconds)  # the Playwright client idles (its event handling is its own CPU, not the server's)
    cpu, own, wall = cpu_seconds(server_pid) - cpu0, time.process_time() - own0, time.perf_counter() - t0
    end_ms = time.time() * 1000
    threads = thread_cpu_seconds(server_pid)
    steps = sum(page.evaluate("([a, b]) => window.stepTimes.filter(t => t >= a && t <= b).length", [start_ms, end_ms])
                for page in pages)  # the steps taken inside the window (the pages share this clock)
    for page in pages:
        page.context.close()
    busy = sorted(((t - threads0.get(tid, 0.0), tid) for tid, t in threads.items()), reverse=True)
    return {"visitors": visitors, "visitor_seconds": round(wall, 1), "visitor_steps": steps,
            "visitor_requests": len(requests), "server_cpu_percent_of_one_core": round(100 * cpu / wall, 2),
            "server_threads": len(threads),
            "server_busiest_threads_cpu_percent": [round(100 * c / wall, 2) for c, _ in busy[:5]],
            "playwright_client_cpu_percent_of_one_core": round(100 * own / wall, 2)}


def write_doc(path: Path, out: dict, command: str) -> None:
    from app.ui import PROGRESS_POLL_S as progress_poll, QUEUE_POLL_S as queue_poll
    goals = [("step click shows every view of the new step (median, in the page)", f"{out['step_ms_median']} ms", "≤ 50 ms"),
             ("the same with Playwright's round trip", f"{out['step_ms_median_with_playwright']} ms", "≤ 100 ms"),
             ("the page's main-thread CPU time per step click (median)",
              f"{out['step_main_thread_cpu_ms_median']} ms", ""),
             ("requests to the server during 20 step/scrub/play/key actions", str(out["requests_during_20_actions"]), "0"),
             ("server CPU, no page open", f"{out['idle_server_cpu_percent_of_one_core']} % of one core", ""),
             (f"server CPU, {out['visitors']} visitors stepping once a second",
              f"{out['server_cpu_percent_of_one_core']} % of one core", "< 5 %"),
             ("requests from those visitors while stepping", str(out["visitor_requests"]), "0"),
             ("reordering animation", f"{out['reorder_fps']} fps", "≥ 30 fps"),
             ("live decode, Run to finished badge", f"{out['live_decode_s']} s", "")]
    rows = "\n".join(f"| {a} | {b} | {c} |" for a, b, c in goals)
    path.write_text(f"""# The app's timings in a browser

Written by `{command}` (do not edit by hand). Chromium (Debian) headless at 1440×900 on
{platform.machine()}, {os.cpu_count()} CPUs shared with other work (load average
{out['load_average']} when measured: wall-clock times stretch with it, the main thread's CPU time
does not); {out['badge']}.

| measure | value | goal |
|---|---|---|
{rows}

Which process each figure is for: the app runs as `python app.py` in a process of its own; the
step clicks and the animation are timed in the browser's page (its main thread's CPU time from
Chromium's own counter); the live decode is the wall time from the Run click to the badge; the
server CPU is the server process's CPU time (user + system, all its
{out['server_threads']} threads, from /proc/<pid>/stat) over {out['visitor_seconds']} s of wall time.
That window opens once all {out['visitors']} pages have loaded the page, opened the Decode tab
and stepped once: page loads (and the events a load runs) are not in it, the visitors' idle
pages and their stepping are. The measuring process (the Playwright client that drives the
{out['visitors']} pages) used {out['playwright_client_cpu_percent_of_one_core']} % of one core in
the same window, not counted above; the server's busiest threads used
{", ".join(f"{c} %" for c in out['server_busiest_threads_cpu_percent'])} of one core.

Stepping runs in the page (app/views/stepper.py draws every view of every step once;
app/static/stepper.js switches them): a step, a scrub, play and the keys send nothing to the
server ({out['visitor_requests']} requests from {out['visitor_steps']} steps in the window), so the
visitors' CPU above is the server idling with {out['visitors']} pages open: asyncio's loop, Gradio's
queue and the pages' open connections. Most of a server's idle CPU was Gradio 6.31's queue looking
for work every 1 ms while it has none (py-spy on an idle server: `start_processing` in
gradio/queueing.py and its `asyncio.sleep(0.001)`, about 7-8 % of one core with no page open, in
the one thread that runs asyncio's loop); app/ui.py has it look every {1000 * queue_poll:.0f} ms (an
event starts at most that much later) and for progress every {1000 * progress_poll:.0f} ms.

```json
{json.dumps(out, indent=2, ensure_ascii=False)}
```
""", encoding="utf-8")


def main() -> int:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=None)
    parser.add_argument("--prompt", default="Count from 1 to 40:")
    parser.add_argument("--max-new-tokens", type=int, default=DEFAULTS["max_new_tokens"])
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--visitors", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--out", default=str(REPO_ROOT / "docs" / "app-timings.md"))
    args = parser.parse_args()
    log = tempfile.NamedTemporaryFile("w", prefix="measure-app-server-", suffix=".log", delete=False)
    server, url = start_server(args.model, log)
    load = os.getloadavg()[0]
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=ARGS)
            page = browser.new_page(viewport=VIEWPORT)
            page.goto(url, wait_until="domcontentloaded", timeout=300_000)
            open_decode_tab(page)
            out = measure_live_decode(page, args)
            out |= measure_steps(page, args.steps)
            out["requests_during_20_actions"] = count_requests(page, url.rstrip("/"))
            fps = page.evaluate(FPS)
            out["reorder_fps"] = None if fps is None else round(fps, 1)
            page.close()
            print(json.dumps(out, ensure_ascii=False), flush=True)  # the single-page figures
            out |= measure_idle(server.pid, args.seconds)
            out |= measure_visitors(browser, url, server.pid, args.visitors, args.seconds)
            browser.close()
    finally:
        stop_server(server)
        log.close()
    os.unlink(log.name)
    out["load_average"] = round(max(load, os.getloadavg()[0]), 1)
    print(json.dumps(out, ensure_ascii=False))
    command = "python -m tools.measure_app" + "".join(f" {a}" for a in sys.argv[1:])
    write_doc(Path(args.out), out, command)
    return 0


if __name__ == "__main__":
    sys.exit(main())
