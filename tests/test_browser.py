"""The explorer in a real headless Chromium (Debian's package) driven by Playwright."""
import os
from pathlib import Path

import pytest

ARTIFACTS = Path(os.environ.get("WEDLM_TEST_ARTIFACTS", Path(__file__).parent.parent / "test-artifacts"))
CHROMIUM = "/usr/bin/chromium"
XSS_PROMPT = '<script>window.__xss=1</script><img src=x onerror="window.__xss=2">Count from 1 to 9:'
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian chromium is not installed (.ci/run installs it)")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def open_decode_tab(page) -> None:
    """The Tour is the landing tab: open the Decode tab (on a phone, from the tab overflow menu)."""
    page.get_by_role("tab", name="Decode").click(timeout=60_000)


@pytest.fixture()
def page(browser, app_url):
    page = browser.new_page(viewport={"width": 1400, "height": 2400})
    page.dialogs = []
    page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
    page.goto(app_url, wait_until="domcontentloaded")
    open_decode_tab(page)
    page.wait_for_selector("#prompt textarea", timeout=60_000)
    # the page-load event shows the first example trace; wait for it, or on a busy machine it
    # can land after a test's own upload and replace it
    page.wait_for_selector("#canvas .prompt", timeout=60_000)
    yield page
    page.close()


def step_button(page, act: str) -> None:
    """Click one of the Decode tab's stepper buttons (first / prev / play / next / last)."""
    page.click(f"#stepper button[data-act={act}]")


def scrub(page, step: int) -> None:
    """Drag the stepper's slider to `step` (as a pointer does: the value, then an input event)."""
    page.eval_on_selector("#stepper input[type=range]",
                          "(r, k) => { r.value = String(k); r.dispatchEvent(new Event('input', {bubbles: true})); }", step)


def plot_traces(page, elem_id: str) -> int:
    """Number of data traces Plotly drew inside a gr.Plot."""
    return page.evaluate(
        """id => { const el = document.querySelector('#' + id + ' .js-plotly-plot');
                   return el && el.data ? el.data.length : 0; }""", elem_id)


def test_run_decode_step_through_and_render(page):
    page.fill("#prompt textarea", XSS_PROMPT)
    page.fill("#max-new input[type=number]", "24")
    page.press("#max-new input[type=number]", "Enter")
    page.click("#run")
    page.wait_for_function("() => document.querySelector('#canvas .prompt').innerText.includes('window.__xss=1') && "
                           "!document.querySelector('#stepper [data-live]') && "
                           "document.querySelector('#badge').innerText.includes('per forward')", timeout=60_000)
    assert page.inner_text("#output .outbox").strip()
    page.screenshot(path=str(ARTIFACTS / "decode-finished.png"), full_page=True)

    # every view rendered with data
    assert page.locator("#canvas .tok").count() > 5
    assert page.locator("#orders .slot").count() > 0
    # attention masks: HTML grids, window rows x (prefix + window) columns
    for grid in ("mask-physical", "mask-logical"):
        sees = page.eval_on_selector_all(f"#{grid} .maskgrid g.gr", "rows => rows.map(r => r.dataset.sees)")
        assert sees and all(len(s) == len(sees) for s in sees)  # a square of window slots
        assert all("1" in s or "2" in s for s in sees) and page.locator(f"#{grid} .maskgrid rect.on").count() >= 1
    assert page.locator("#growth svg polyline.growth").count() == 1
    assert page.locator("#entropy-heatmap svg rect").count() > 1
    assert page.locator("#step-table tr").count() > 2
    assert "streaming" in page.inner_text("#badge")

    # step back to the first step and forward again
    step_button(page, "first")
    page.wait_for_function("() => document.querySelector('#badge').innerText.includes('forward 1 of')")
    assert page.locator("#canvas .tok.st-new").count() >= 1
    assert page.locator("#entropy-bars svg rect.bar").count() >= 1
    step_button(page, "next")
    page.wait_for_function("() => document.querySelector('#badge').innerText.includes('forward 2 of')")
    page.screenshot(path=str(ARTIFACTS / "decode-step-2.png"), full_page=True)

    # the prompt rendered as text everywhere: no script ran, no image tag was created
    assert page.evaluate("() => window.__xss") is None
    assert page.dialogs == []
    assert "<script>window.__xss=1</script>" in page.inner_text("#canvas .prompt")
    assert page.locator("#canvas img, #orders img, #step-table img, #output img").count() == 0


def test_loaded_trace_files_hostile_and_broken(page, tiny_lm, tmp_path):
    from wedlm import DecodeConfig, decode
    trace = decode(tiny_lm, "Count from 1 to 9:", "streaming", DecodeConfig(window=8, threshold=3.0, max_new_tokens=12))
    trace.prompt = '<img src=x onerror="window.__xss=4">hostile prompt'
    for tok in trace.token_ids:
        trace.tokens[tok] = '<img src=y onerror="window.__xss=5">'
    hostile = tmp_path / "hostile.json"
    trace.save(hostile)
    page.set_input_files("#upload input[type=file]", str(hostile))
    page.wait_for_function("() => document.querySelector('#canvas .prompt') && "
                           "document.querySelector('#canvas .prompt').innerText.includes('hostile prompt')",
                           timeout=30_000)
    assert 'onerror="window.__xss=5"' in page.inner_text("#canvas")
    assert page.locator("#canvas img, #orders img, #step-table img, #badge img").count() == 0
    assert page.evaluate("() => window.__xss") is None
    page.screenshot(path=str(ARTIFACTS / "hostile-trace.png"), full_page=True)
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "wedlm-trace", "version": 1, "steps": "nope"}')
    page.locator("#upload button[aria-label='Clear']").click()
    page.set_input_files("#upload input[type=file]", str(broken))
    page.wait_for_function("() => document.body.innerText.includes('not a valid WeDLM trace')", timeout=30_000)
    assert "hostile prompt" in page.inner_text("#canvas .prompt")  # the app kept its state


def test_slow_page_load_example_never_replaces_an_upload(browser, app_url, tiny_lm, tmp_path, monkeypatch):
    """The page-load example can finish after the user's own upload on a busy server; it must
    then leave the user's trace alone. Reading the example file is slowed down to force that order."""
    import threading
    import time
    from app.tabs import decode as decode_tab
    from app.serving.context import TRACE_DIR, read_trace_file
    from wedlm import DecodeConfig, decode
    example_started = threading.Event()

    def slow_for_examples(path, *args, **kwargs):
        if Path(path).parent == TRACE_DIR:
            example_started.set()
            time.sleep(6)
        return read_trace_file(path, *args, **kwargs)

    monkeypatch.setattr(decode_tab, "read_trace_file", slow_for_examples)
    decode_tab.example_bundle.cache_clear()  # examples are drawn once and cached: read it again
    trace = decode(tiny_lm, "Count from 1 to 9:", "streaming", DecodeConfig(window=8, threshold=3.0, max_new_tokens=12))
    trace.prompt = "my uploaded prompt"
    mine = tmp_path / "mine.json"
    trace.save(mine)
    page = browser.new_page(viewport={"width": 1400, "height": 2400})
    try:
        page.goto(app_url, wait_until="domcontentloaded")
        open_decode_tab(page)
        page.wait_for_selector("#upload input[type=file]", state="attached", timeout=60_000)
        assert example_started.wait(30), "the page-load event never read the example trace"
        page.set_input_files("#upload input[type=file]", str(mine))
        page.wait_for_function("() => document.querySelector('#canvas .prompt') && document.querySelector"
                               "('#canvas .prompt').innerText.includes('my uploaded prompt')", timeout=30_000)
        time.sleep(8)  # the slowed page-load event has finished by now
        assert "my uploaded prompt" in page.inner_text("#canvas .prompt")
    finally:
        page.close()


def test_self_contained_replay_renders_and_stays_inert(browser, tiny_lm, tmp_path):
    from app.views.export import replay_html
    from app.views.timeline import Timeline
    from wedlm import DecodeConfig, decode
    trace = decode(tiny_lm, XSS_PROMPT, "streaming", DecodeConfig(window=8, threshold=3.0, max_new_tokens=16))
    trace.tokens[trace.token_ids[0]] = "</script><script>window.__xss=3</script>"  # hostile trace text
    page_file = tmp_path / "replay.html"
    page_file.write_text(replay_html(Timeline(trace)), encoding="utf-8")
    page = browser.new_page()
    page.goto(page_file.as_uri())
    page.wait_for_selector("#canvas .tok")
    assert "What happened at step 0" in page.inner_text("#narration")
    step_button(page, "next")
    assert "What happened at step 1" in page.inner_text("#narration")
    assert page.locator("#orders .row").nth(1).locator(".slot").count() == len(trace.steps[1].window)
    step_button(page, "last")
    assert "</script><script>" in page.inner_text("#canvas")   # shown as text
    assert page.evaluate("() => window.__xss") is None
    page.screenshot(path=str(ARTIFACTS / "replay.png"), full_page=True)
    page.close()


def open_tab(page, name: str) -> None:
    page.get_by_role("tab", name=name).click()


def test_race_tab_runs_and_animates(page):
    """The lanes tick to the end; the finished figures appear only then (no spoiler), with the
    measured cost note; each lane's colour is its line's colour in the chart."""
    open_tab(page, "Race")
    page.fill("#race-prompt textarea", "Count from 1 to 9:")
    page.fill("#race-max-new input[type=number]", "12")
    page.press("#race-max-new input[type=number]", "Enter")
    page.get_by_label("slow (2 ticks/s)").check()
    page.click("#race-run")
    page.wait_for_function("() => document.querySelectorAll('#race-lanes .lane').length === 4", timeout=60_000)  # ar, streaming, block, verified
    lanes = page.inner_text("#race-lanes")
    assert "decoding…" in lanes and "finished:" not in lanes and "tokens/s" not in lanes
    page.wait_for_function("() => [...document.querySelectorAll('#race-lanes .lane')].every("
                           "l => l.innerText.includes('finished:'))", timeout=90_000)
    assert "an AR forward on this machine" in page.inner_text("#race-lanes .racenote")
    assert plot_traces(page, "race-chart") >= 4
    colours = page.evaluate("""() => {
        const hex = c => { const m = c.match(/\d+/g); return '#' + m.slice(0, 3).map(v => (+v).toString(16).padStart(2, '0')).join(''); };
        const lanes = {};
        document.querySelectorAll('#race-lanes .lane').forEach(l => {
          lanes[l.querySelector('b').innerText] = hex(getComputedStyle(l).borderLeftColor); });
        const lines = {};
        document.querySelector('#race-chart .js-plotly-plot').data.forEach(t => { lines[t.name] = t.line.color; });
        return [lanes, lines]; }""")
    lanes, lines = colours
    assert len(lanes) == 4 and all(lines[name].lower() == colour for name, colour in lanes.items())
    page.screenshot(path=str(ARTIFACTS / "race.png"), full_page=True)


def test_entropy_tab_sweep_and_lessons_tab(page):
    open_tab(page, "Entropy explorer")
    page.click("#sweep-run")
    page.wait_for_function("() => { const el = document.querySelector('#tau-sweep .js-plotly-plot'); "
                           "return el && el.data && el.data[0] && el.data[0].x.length === 10; }", timeout=120_000)
    page.wait_for_function("() => document.querySelector('#sweep-table').innerText.includes('output_changed')")
    assert "none" in page.inner_text("#sweep-table")
    page.screenshot(path=str(ARTIFACTS / "entropy-sweep.png"), full_page=True)
    open_tab(page, "How it works")
    page.wait_for_function("() => document.querySelector('#pg-mask-logical .maskgrid g.gr')", timeout=30_000)
    assert "fed at the next forward" in page.inner_text("#pg-orders") and "slot(s)" not in page.inner_text("#pg-orders")
    assert plot_traces(page, "training-mask") == 1
    # the playground draws with the Decode tab's own renderer: 8 rows of 8 window columns
    sees = page.eval_on_selector_all("#pg-mask-physical .maskgrid g.gr", "rows => rows.map(r => r.dataset.sees)")
    assert len(sees) == 8 and all(len(s) == 8 for s in sees)
    page.get_by_label("2", exact=True).check()  # fill slot 2: now 0..3 lead and commit
    page.wait_for_function("() => document.querySelector('#pg-orders').innerText.includes('4 leading filled')",
                           timeout=30_000)
    page.screenshot(path=str(ARTIFACTS / "how-it-works.png"), full_page=True)


# -- the Decode tab's defects (issue 21 §5) and its linked, narrated, fitted views ------------------

def run_small_decode(page, prompt: str, max_new: int = 12) -> None:
    page.fill("#prompt textarea", prompt)
    page.fill("#max-new input[type=number]", str(max_new))
    page.press("#max-new input[type=number]", "Enter")
    page.click("#run")
    page.wait_for_function("p => document.querySelector('#canvas .prompt').innerText === p && "
                           "document.querySelector('#badge').innerText.includes('per forward')", arg=prompt,
                           timeout=90_000)


def test_branch_untouched_form_works_and_says_whether_the_text_changed(page):
    run_small_decode(page, "Count from 1 to 7:")  # a trace of the served model (branching re-runs it)
    step_button(page, "first")
    page.wait_for_function("() => document.querySelector('#badge').innerText.includes('forward 1 of')",
                           timeout=60_000)
    page.get_by_text("Branch: re-run from the current step").click()
    for field in ("br-force-pos", "br-veto-pos"):
        assert page.locator(f"#{field} input, #{field} textarea").first.input_value() == ""
    page.click("#branch")
    page.wait_for_function("() => document.querySelector('#branch-summary').innerText.includes('output text')",
                           timeout=60_000)
    summary = page.inner_text("#branch-summary")
    assert "Branched after step 0" in summary
    assert "The output text is the same" in summary or "The output text changed" in summary
    assert page.locator("#branch-new .tok").count() > 0


def shown_marker(page, view: str) -> str | None:
    """The data-at-step of the marker a whole-trace view shows (growth marker, table row)."""
    return page.evaluate("v => { const e = document.querySelector('#' + v + ' [data-at-step].now'); "
                         "return e ? e.dataset.atStep : null; }", view)


def test_growth_marker_and_scrubbed_step_follow_the_step(page):
    step_button(page, "first")
    page.wait_for_function("() => document.querySelector('#badge').innerText.includes('forward 1 of')", timeout=60_000)
    assert shown_marker(page, "growth") == "0" and shown_marker(page, "step-table") == "0"
    step_button(page, "next")
    assert shown_marker(page, "growth") == "1" and shown_marker(page, "step-table") == "1"
    scrub(page, 4)  # scrubbing the slider moves every view
    assert "forward 5 of" in page.inner_text("#badge")
    assert shown_marker(page, "growth") == "4"
    assert "What happened at step 4" in page.inner_text("#narration")


def test_example_dropdown_and_prompt_box_follow_the_trace(page):
    page.locator("#examples input").click()
    page.get_by_role("option", name="7-plays-streaming.json").click()
    page.wait_for_function("() => document.querySelector('#canvas .prompt').innerText.startsWith('ROMEO')",
                           timeout=30_000)
    assert page.input_value("#prompt textarea").startswith("ROMEO")
    run_small_decode(page, "Count from 1 to 5:", 8)
    assert page.input_value("#examples input") == ""  # a new decode is not the example any more


def test_ar_trace_gets_views_that_mean_something(page):
    page.locator("#examples input").click()
    page.get_by_role("option", name="2-counting-ar.json").click()
    page.wait_for_function("() => document.querySelector('#badge .dec').innerText === 'ar'", timeout=30_000)
    assert page.locator("#entropy-bars svg rect.bar").count() > 1
    assert page.locator("#entropy-heatmap svg rect.poscol").count() > 1
    assert page.locator("#mask-physical .maskgrid g.gr").count() == 0  # no 1×1 grid: a sentence instead
    assert "one row" in page.inner_text("#mask-physical")
    assert "next-token head predicts" in page.inner_text("#narration")


def test_narration_and_linked_highlighting(page):
    step_button(page, "first")
    page.wait_for_function("() => document.querySelector('#narration').innerText.includes('What happened at step 0')")
    text = page.inner_text("#narration")
    assert "Nothing commits" in text and "filled with" in text  # the counting trace's first step
    step_button(page, "next")
    page.wait_for_function("() => document.querySelector('#narration').innerText.includes('at step 1')")
    token = page.locator("#orders .slot.st-committing").first   # the leading run this forward commits
    pos = token.get_attribute("data-pos")
    token.click()  # a tap pins the highlight (touch has no hover)
    views = ("canvas", "orders", "mask-physical", "mask-logical")
    marked = page.evaluate("""sel => [...document.querySelectorAll('.hl')].map(e => {
        const view = e.closest(sel); return [view ? view.id : null, e.dataset.pos]; })""",
                           ", ".join(f"#{v}" for v in views))
    assert {p for _, p in marked} == {pos}  # only the tapped position is marked
    for view in views:
        assert view in {v for v, _ in marked}, (view, marked)
    page.locator(f'#canvas .tok[data-pos]:not([data-pos="{pos}"])').first.click()
    assert page.locator(f'#orders .hl[data-pos="{pos}"]').count() == 0  # the pin moved


def test_model_card_and_advanced_fold(page):
    assert "parameters" in page.inner_text("#model-card") or page.get_by_text("About the model").count() == 1
    page.get_by_text("About the model").click()
    page.wait_for_function("() => document.querySelector('#model-card').innerText.includes('parameters')")
    assert not page.locator("#advanced input[type=number]").first.is_visible()  # folded by default


VIEWS = ["badge", "narration", "canvas", "orders", "entropy-bars", "growth", "mask-physical",
         "mask-logical", "entropy-heatmap", "step-table"]


@pytest.mark.parametrize("width,height", [(390, 844), (1024, 768)])
def test_views_fit_the_room(browser, app_url, width, height):
    """No two visible view boxes overlap, nothing is wider than the screen (wide grids scroll in
    their own box), tokens are at least 16 px and labels 12 px; at 1024×768 a visualization
    starts on the first screen."""
    page = browser.new_page(viewport={"width": width, "height": height})
    try:
        page.goto(app_url, wait_until="domcontentloaded")
        open_decode_tab(page)
        page.wait_for_selector("#canvas .tok", timeout=60_000)
        page.wait_for_selector("#mask-logical .maskgrid g.gr", state="attached", timeout=60_000)
        page.wait_for_selector("#entropy-heatmap svg", timeout=30_000)
        boxes = page.evaluate("""ids => ids.map(id => { const r = document.getElementById(id).getBoundingClientRect();
                                   return [id, r.left, r.top + scrollY, r.right, r.bottom + scrollY]; })""", VIEWS)
        for i, a in enumerate(boxes):
            assert a[3] - a[1] > 0 and a[4] - a[2] > 0, f"{a[0]} is not visible"
            assert a[1] >= 0 and a[3] <= width, f"{a[0]} is cut off: {a}"
            for b in boxes[i + 1:]:
                overlap = min(a[3], b[3]) - max(a[1], b[1]) > 1 and min(a[4], b[4]) - max(a[2], b[2]) > 1
                assert not overlap, f"{a[0]} overlaps {b[0]}"
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        sizes = page.evaluate("""() => {
            const px = sel => [...document.querySelectorAll(sel)].map(e => parseFloat(getComputedStyle(e).fontSize));
            return {tokens: px('#canvas .tokens .tok, #orders .slot .tokt'),
                    labels: px('#decode-views *, #orders *, #mask-physical *, #step-table *').filter(s => s > 0)}; }""")
        assert min(sizes["tokens"]) >= 16 and min(sizes["labels"]) >= 12
        if width == 1024:
            assert page.evaluate("() => document.querySelector('#canvas').getBoundingClientRect().top") < height
        page.screenshot(path=str(ARTIFACTS / f"decode-{width}.png"), full_page=False)
    finally:
        page.close()


def test_decode_growth_chart_has_forward_ticks_and_no_hole_beside_it(browser, app_url):
    """1024x768: the growth chart's x axis is numbered (forwards, apart from each other and from the
    y axis's 0), and at every step the growth chart and the bars beside it are about as tall: the
    decode's last step (no bars) left a 236 px hole beside the chart, a step with bars 34 px under it."""
    page = browser.new_page(viewport={"width": 1024, "height": 768})
    try:
        page.goto(app_url, wait_until="domcontentloaded")
        open_decode_tab(page)
        page.wait_for_selector("#growth svg.chart", timeout=60_000)
        page.locator("#growth").scroll_into_view_if_needed()
        ticks = page.evaluate("""() => [...document.querySelectorAll('#growth svg.chart text.tick')].filter(
            t => t.getBoundingClientRect().width > 0).map(t => { const r = t.getBoundingClientRect();
            return [t.textContent, r.left, r.top, r.right, r.bottom, t.classList.contains('xtick')]; })""")
        xs = [t for t in ticks if t[5]]
        assert len(xs) >= 3 and [int(t[0]) for t in xs] == sorted(int(t[0]) for t in xs), ticks
        for i, a in enumerate(ticks):
            for b in ticks[i + 1:]:
                assert a[3] <= b[1] + 1 or b[3] <= a[1] + 1 or a[4] <= b[2] + 1 or b[4] <= a[2] + 1, (a, b)
        heights = page.evaluate("""() => { const last = +document.querySelector('#stepper input[type=range]').max;
            const out = [];
            for (let k = 0; k <= last; k++) { window.wedlmStepper.show('decode', k);
              out.push([k, document.getElementById('entropy-bars').offsetHeight, document.getElementById('growth').offsetHeight]); }
            return out; }""")
        assert all(abs(b - g) <= 24 for _, b, g in heights), heights
        page.screenshot(path=str(ARTIFACTS / "decode-growth-1024.png"))
    finally:
        page.close()


# -- stepping in the page (issue 36), the Decode tab's keys (issue 34.3), the step views (issue 32) --

def shown_steps(page) -> dict:
    """The step every Decode view, the stepper and its slider show."""
    return page.evaluate("""() => {
        const out = {};
        document.querySelectorAll('.wedlm-view[data-stepper="decode"]').forEach(v => { out[v.dataset.view] = v.dataset.step; });
        out['stepper'] = String(window.wedlmStepper.current('decode'));
        out['slider'] = document.querySelector('#stepper input[type=range]').value;
        return out; }""")


def assert_one_step(page, expected: int | None = None) -> int:
    steps = shown_steps(page)
    assert len(steps) >= 13 and len(set(steps.values())) == 1, steps  # 11 views, stepper, slider
    k = int(steps["stepper"])
    assert expected is None or k == expected
    assert f"What happened at step {k} " in page.inner_text("#narration")
    assert f"Output after step {k} " in page.inner_text("#canvas")
    assert page.inner_text("#stepper .stepper-summary").startswith(f"Step {k} of ")  # the aria-live sentence
    return k


def test_stepping_scrubbing_playing_send_no_request_and_views_agree(page, app_url):
    """20 step / scrub / play / key actions: no request reaches the server, and after each one
    every view draws the same step."""
    origin = app_url.rstrip("/")
    requests = []
    page.on("request", lambda r: requests.append(r.url) if r.url.startswith(origin) else None)
    assert page.get_attribute("#stepper .stepper-summary", "aria-live") == "polite"
    last = assert_one_step(page)  # a trace opens on its last step
    step_button(page, "first")
    assert_one_step(page, 0)
    for k in range(1, 5):
        step_button(page, "next")
        assert_one_step(page, k)
    step_button(page, "prev")
    assert_one_step(page, 3)
    for k in (2, last, 1, 0):
        scrub(page, k)
        assert_one_step(page, k)
    page.locator("#app-header").click()  # nothing focused that takes keys
    for key, k in (("ArrowRight", 1), ("ArrowRight", 2), ("ArrowLeft", 1), ("End", last), ("Home", 0)):
        page.keyboard.press(key)
        assert_one_step(page, k)
    step_button(page, "play")
    page.wait_for_function("() => window.wedlmStepper.current('decode') >= 2", timeout=10_000)
    step_button(page, "play")  # pause
    k = assert_one_step(page)
    page.wait_for_timeout(1200)
    assert assert_one_step(page) == k  # paused stays paused
    step_button(page, "last")
    assert_one_step(page, last)
    assert requests == [], requests


def test_decode_tab_keys_never_while_typing(page):
    assert "Keys: ← → step · Space play/pause · Home/End first/last" in page.inner_text("#stepper")
    page.locator("#app-header").click()
    page.keyboard.press("Home")
    assert_one_step(page, 0)
    page.keyboard.press("ArrowRight")
    assert_one_step(page, 1)
    page.keyboard.press(" ")  # Space plays ...
    page.wait_for_function("() => window.wedlmStepper.current('decode') >= 3", timeout=10_000)
    page.keyboard.press(" ")  # ... and pauses
    k = assert_one_step(page)
    page.click("#prompt textarea")
    for key in ("ArrowLeft", "Home", "End", " "):
        page.keyboard.press(key)
    assert assert_one_step(page) == k  # typing in the prompt moved no step
    assert page.input_value("#prompt textarea").endswith(" ")  # the space went to the text box


def test_export_draws_the_step_like_the_app(page, browser, tiny_lm, tmp_path):
    """The offline replay is the app's stepper: the same HTML in every view at the same step."""
    from app.views.export import replay_html
    from app.views.timeline import Timeline
    from wedlm import DecodeConfig, Trace, decode
    trace = decode(tiny_lm, "Count from 1 to 9:", "streaming", DecodeConfig(window=8, threshold=3.0, max_new_tokens=16))
    trace.prompt = "export comparison"
    path = tmp_path / "same.json"
    trace.save(path)
    page.set_input_files("#upload input[type=file]", str(path))
    page.wait_for_function("() => document.querySelector('#canvas .prompt') && "
                           "document.querySelector('#canvas .prompt').innerText.includes('export comparison')",
                           timeout=30_000)
    replay = tmp_path / "replay.html"
    replay.write_text(replay_html(Timeline(Trace.load(path))), encoding="utf-8")
    offline = browser.new_page(viewport={"width": 1400, "height": 2400})
    try:
        offline.goto(replay.as_uri())
        offline.wait_for_selector("#canvas .tok")
        views = "() => Object.fromEntries([...document.querySelectorAll('.wedlm-view[data-stepper=decode]')].map(v => [v.dataset.view, v.innerHTML]))"
        for k in (0, 1, len(trace.steps) - 1):
            for p in (page, offline):
                p.evaluate("k => window.wedlmStepper.show('decode', k)", k)
            app_views, export_views = page.evaluate(views), offline.evaluate(views)
            assert len(app_views) == 11 and app_views == export_views, k
    finally:
        offline.close()


def test_limits_one_source_and_step_views_say_the_truth(page):
    """32.7: the max-new-tokens slider stops at the limit the line under the title states; the
    output text follows the shown step; the bars' title never says 'no open masks' at the end."""
    top = page.get_attribute("#max-new input[type=range]", "max")
    assert f"≤ {top} new tokens" in page.inner_text("#server-line")
    step_button(page, "first")
    first_text = page.inner_text("#output .outbox")
    step_button(page, "last")
    assert len(page.inner_text("#output .outbox")) > len(first_text)
    assert "no open masks" not in page.inner_text("#entropy-bars")


def test_token_states_have_marks_and_the_reordering_animates(page):
    step_button(page, "first")
    mark = page.evaluate("() => getComputedStyle(document.querySelector('#canvas .tok.st-new'), '::after').content")
    assert "✱" in mark  # new this step: a mark, not only orange
    committed = page.evaluate("() => getComputedStyle(document.querySelector('#canvas .legend .st-committed')).boxShadow")
    assert "inset" in committed  # committed: an underline bar, not only green
    # the button only where a slot moves: step 0's window is all masks, so no slot does
    assert not page.locator("#orders .reorder-play").count()
    for _ in range(30):
        if page.locator("#orders .reorder-play").count():
            break
        step_button(page, "next")
    page.click("#orders .reorder-play")
    moving = page.evaluate("() => document.getAnimations().filter(a => a.playState === 'running').length")
    assert moving >= len(page.locator("#orders .row").first.locator(".slot").all())
    page.emulate_media(reduced_motion="reduce")
    page.wait_for_timeout(1800)
    assert not page.locator("#orders .reorder-play").is_visible()
    assert page.evaluate("() => window.wedlmStepper.animateReorder(document.querySelector('#orders .orders'))") is None


@pytest.mark.parametrize("width,height", [(390, 844), (1024, 768)])
def test_attention_grids_fit_and_keep_their_orange_cells_when_followed(browser, app_url, width, height):
    """32.5: no sideways scrolling in the grids; following a row outlines it (orange cells stay)."""
    page = browser.new_page(viewport={"width": width, "height": height})
    try:
        page.goto(app_url, wait_until="domcontentloaded")
        open_decode_tab(page)
        page.wait_for_selector("#mask-logical .maskgrid g.gr", state="attached", timeout=60_000)
        step = page.evaluate("""() => { const last = +document.querySelector('#stepper input[type=range]').max;
            for (let k = 0; k <= last; k++) {   // the first step whose logical grid has orange cells
              window.wedlmStepper.show('decode', k);
              if (document.querySelector('#mask-logical rect.later')) return k; }
            return null; }""")
        assert step is not None
        for grid in ("mask-physical", "mask-logical"):
            box = page.evaluate("g => { const v = document.querySelector('#' + g + ' .maskgrid');"
                                "const s = v.querySelector('svg').getBoundingClientRect();"
                                "return [v.scrollWidth, v.clientWidth, s.right]; }", grid)
            assert box[0] <= box[1] + 1 and box[2] <= width, (grid, box)
        row = page.locator("#mask-logical g.gr[data-sees*='2']").first
        pos = row.get_attribute("data-pos")
        page.locator(f'#canvas .tok[data-pos="{pos}"]').click()  # follow that position
        assert "hl" in page.get_attribute(f'#mask-logical rect.band[data-pos="{pos}"]', "class")
        later = row.locator("rect.later").first
        colour = later.evaluate("e => getComputedStyle(e).fill")
        assert colour == "rgb(249, 115, 22)", colour  # still orange, under an outline
        stroke = page.eval_on_selector(f'#mask-logical rect.band[data-pos="{pos}"]', "e => getComputedStyle(e).fill")
        assert stroke in ("transparent", "rgba(0, 0, 0, 0)"), stroke  # the outline does not paint over it
    finally:
        page.close()


def test_verified_example_marks_its_checks_and_narrates_the_rejection(page):
    """Beyond the paper: the verified example, stepped to a step whose check rejected a draft.
    The window view marks exactly that step's checked drafts ✓ / ✗, the canvas marks the AR
    token, and the narration names the same numbers, all at the stepper's step (data-step)."""
    from app.views import narration
    from wedlm import Trace
    from wedlm.paths import TRACES_DIR
    name = "8-arithmetic-verified.json"
    trace = Trace.load(TRACES_DIR / name)
    k = next(s.index for s in trace.steps if s.verify.rejected_pos is not None)
    v = trace.steps[k].verify
    assert "beyond the paper" in page.inner_text("#decoder-note")
    page.locator("#examples input").click()
    page.get_by_role("option", name=name).click()
    page.wait_for_function("() => document.querySelector('#badge .dec').innerText === 'verified'", timeout=30_000)
    page.evaluate("k => window.wedlmStepper.show('decode', k)", k)
    page.wait_for_function("k => document.querySelector('#orders .wedlm-view').dataset.step === String(k)", arg=k)
    marks = page.evaluate("""() => [...document.querySelectorAll('#orders .slot[data-verify]')].map(
        e => [e.dataset.verify, +e.dataset.pos, e.querySelector('.vmark').innerText])""")
    first = trace.steps[k].start + 1
    window = sorted((m[0], m[1], m[2]) for m in marks if m[0] != "ar")
    want = [("accepted", first + j, "✓") for j in range(v.accepted)] + [("rejected", v.rejected_pos, "✗")]
    assert window == sorted(want * 2)  # logical and physical rows
    assert [m[1] for m in marks if m[0] == "ar"] == [v.ar_pos]
    for view in ("canvas", "narration", "orders"):
        assert page.get_attribute(f"#{view} .wedlm-view", "data-step") == str(k)
    text = page.inner_text("#narration")
    assert f"What happened at step {k} " in text
    assert f"left to right: {v.accepted or 'none'} agreed (✓)" in text
    assert f"at position {v.rejected_pos} was rejected (✗)" in text
    assert narration.token_text(trace, v.ar_token) in text and "exactly greedy AR" in text


@pytest.mark.parametrize("lang", ["", "zh"])
def test_a_390_phone_shows_the_language_switch_clear_of_the_title(browser, app_url, lang):
    """390x844: the language switch (top right) covered the title's end by 2-4 px ("WeDLM Explorer"
    ended at 270 px, the switch began at 266-268). Now apart, each on screen, the title on one line."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        page.goto(app_url.rstrip("/") + "/" + lang, wait_until="domcontentloaded")
        page.wait_for_selector("a.lang-switch", state="visible", timeout=60_000)
        page.wait_for_selector("#app-header h1", state="visible", timeout=60_000)
        m = page.evaluate("""() => { const a = document.querySelector('a.lang-switch').getBoundingClientRect();
            const h = document.querySelector('#app-header h1'), range = document.createRange();
            range.selectNodeContents(h);
            const lines = [...range.getClientRects()].map(r => [r.left, r.top, r.right, r.bottom]);
            return {lang: [a.left, a.top, a.right, a.bottom], lines, vw: document.documentElement.clientWidth,
                    px: parseFloat(getComputedStyle(h).fontSize)}; }""")
        (left, top, right, bottom), vw = m["lang"], m["vw"]
        assert 0 <= left and right <= vw, m
        # the title's text (each of its boxes) and the switch share no pixel
        for tl, tt, tr, tb in m["lines"]:
            assert tr <= left - 2 or tb <= top or tt >= bottom, m
        assert len({round(t) for _, t, _, _ in m["lines"]}) == 1 and m["px"] >= 20, m   # one line, still a title
    finally:
        page.close()
